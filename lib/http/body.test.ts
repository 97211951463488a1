import { describe, expect, it } from "vitest";
import { JSON_TYPES, readJsonBody, readTextCapped, requireContentType } from "./body.ts";

describe("requireContentType", () => {
  it("accepts JSON types (with parameters and +json) and refuses what a cross-site form can send", () => {
    expect(requireContentType(new Headers({ "content-type": "application/json; charset=utf-8" }), JSON_TYPES)).toBe("application/json");
    expect(requireContentType(new Headers({ "content-type": "application/vnd.reterm+json" }), JSON_TYPES)).toBe(
      "application/vnd.reterm+json",
    );
    for (const t of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      expect(() => requireContentType(new Headers({ "content-type": t }), JSON_TYPES)).toThrow(
        expect.objectContaining({ code: "UNSUPPORTED_MEDIA_TYPE", status: 415 }),
      );
    }
    expect(() => requireContentType(new Headers(), JSON_TYPES)).toThrow(/missing/);
  });
});

describe("readTextCapped", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  it("reads a body under the cap", async () => {
    expect(await readTextCapped(post("héllo"), 100)).toBe("héllo");
  });
  it("stops reading a streamed body as soon as it passes the cap, whatever Content-Length claims", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    await expect(readTextCapped(post(endless), 1024 * 1024, "request body", "X_MB")).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: expect.stringMatching(/1 MB limit \(X_MB\)/),
    });
    expect(pulled).toBeLessThan(40);
  });
  it("refuses up front when Content-Length is over the cap", async () => {
    await expect(readTextCapped(post("x", { "content-length": String(10 ** 9) }), 1000)).rejects.toMatchObject({ status: 413 });
  });
});

describe("readJsonBody", () => {
  const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  it("parses a JSON body", async () => {
    expect(await readJsonBody(post('{"a":1}', { "content-type": "application/json" }))).toEqual({ a: 1 });
  });
  it("answers malformed or empty JSON with a 400 that says what is wrong, not a 500", async () => {
    await expect(readJsonBody(post("{oops", { "content-type": "application/json" }))).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^request body is not valid JSON \(/),
    });
    await expect(readJsonBody(post(null))).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/empty body/) });
    expect(await readJsonBody(post(null), { empty: {} })).toEqual({});
  });
  it("refuses other content types (415) and bodies over the cap (413)", async () => {
    await expect(readJsonBody(post('{"a":1}', { "content-type": "text/plain" }))).rejects.toMatchObject({ status: 415 });
    await expect(
      readJsonBody(post(`{"a":"${"x".repeat(2000)}"}`, { "content-type": "application/json" }), { maxBytes: 1000 }),
    ).rejects.toMatchObject({ status: 413 });
  });
});
