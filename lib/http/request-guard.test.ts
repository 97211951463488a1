import { describe, expect, it } from "vitest";
import { checkRequest, hostAllowed, hostName } from "./request-guard.ts";

const req = (method: string, headers: Record<string, string>, url = "http://x/api/v1/trajectories") => ({
  method,
  url,
  headers: new Headers(headers),
});

describe("Host allow-list (DNS rebinding)", () => {
  it("answers loopback names and configured names only", () => {
    for (const h of ["localhost:3000", "127.0.0.1:3000", "127.1.2.3", "[::1]:3000", "app.localhost"])
      expect(checkRequest(req("GET", { host: h }), [])).toBeNull();
    expect(checkRequest(req("GET", { host: "evil.example" }), [])).toMatchObject({ status: 421 });
    expect(checkRequest(req("GET", { host: "localhost.evil.example" }), [])).toMatchObject({ status: 421 });
    expect(checkRequest(req("GET", { host: "reterm.lab.example:8080" }), ["reterm.lab.example"])).toBeNull();
    expect(hostAllowed("a.lab.example", [".lab.example"])).toBe(true);
    expect(hostAllowed("evillab.example", [".lab.example"])).toBe(false);
    expect(hostAllowed("anything", ["*"])).toBe(true);
    expect(checkRequest(req("GET", {}, "/relative"), [])).toMatchObject({ status: 400 });
    expect(checkRequest(req("GET", {}, "http://localhost:3000/x"), [])).toBeNull();
    expect(hostName("user@evil:80")).toBeNull();
  });
});

describe("methods and paths", () => {
  it("refuses TRACE and undecodable paths with clear 4xx answers", () => {
    expect(checkRequest(req("TRACE", { host: "localhost" }), [])).toMatchObject({ status: 405 });
    expect(checkRequest(req("GET", { host: "localhost" }, "http://localhost/trajectories/%ff"), [])).toMatchObject({ status: 400 });
    expect(checkRequest(req("GET", { host: "localhost" }, "http://localhost/trajectories/%E2%9C%93?q=%ff"), [])).toBeNull();
  });
});

describe("Origin checks on state-changing requests", () => {
  const host = { host: "127.0.0.1:3000" };
  it("lets same-origin browsers and non-browser clients write", () => {
    expect(checkRequest(req("POST", { ...host, origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), [])).toBeNull();
    expect(checkRequest(req("POST", { ...host, authorization: "Bearer rt_x" }), [])).toBeNull();
  });
  it("refuses foreign origins, opaque origins and cross-site or same-site fetches", () => {
    expect(checkRequest(req("POST", { ...host, origin: "http://evil.example" }), [])).toMatchObject({ status: 403 });
    expect(checkRequest(req("DELETE", { ...host, origin: "http://127.0.0.1:8080" }), [])).toMatchObject({ status: 403 });
    expect(checkRequest(req("POST", { ...host, origin: "null" }), [])).toMatchObject({ status: 403 });
    expect(checkRequest(req("POST", { ...host, "sec-fetch-site": "cross-site" }), [])).toMatchObject({
      status: 403,
      message: /cross-site/,
    });
    expect(checkRequest(req("PUT", { ...host, "sec-fetch-site": "same-site" }), [])).toMatchObject({ status: 403 });
    // Reads are not writes: a cross-site GET of a page is a link click.
    expect(checkRequest(req("GET", { ...host, origin: "http://evil.example", "sec-fetch-site": "cross-site" }), [])).toBeNull();
  });
});
