import { describe, expect, it } from "vitest";
import { assertSameOrigin } from "./csrf.ts";

const url = "http://127.0.0.1:3000/api/imports";
const h = (o: Record<string, string>) => new Headers({ host: "127.0.0.1:3000", ...o });

describe("assertSameOrigin", () => {
  it("refuses a cross-site form post (foreign Origin or Sec-Fetch-Site)", () => {
    expect(() => assertSameOrigin("POST", h({ origin: "https://evil.example" }), url)).toThrow(/Cross-site request refused/);
    expect(() => assertSameOrigin("POST", h({ "sec-fetch-site": "cross-site" }), url)).toThrow(/Cross-site/);
    expect(() => assertSameOrigin("DELETE", h({ "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3000" }), url)).toThrow(/Cross-site/);
    expect(() => assertSameOrigin("POST", h({ origin: "null" }), url)).toThrow(/Cross-site/);
  });
  it("lets our own pages, API-token clients, non-browser clients and reads through", () => {
    expect(() => assertSameOrigin("POST", h({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), url)).not.toThrow();
    expect(() => assertSameOrigin("POST", h({ origin: "https://evil.example", authorization: "Bearer rt_x" }), url)).not.toThrow();
    expect(() => assertSameOrigin("POST", h({}), url)).not.toThrow();
    expect(() => assertSameOrigin("GET", h({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }), url)).not.toThrow();
  });
});
