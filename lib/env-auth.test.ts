import { describe, expect, it } from "vitest";
import { authMode, isLoopbackHost, parseEnv } from "./env.ts";

describe("auth mode", () => {
  it("local only on a loopback address without RETERM_AUTH=on", () => {
    expect(authMode(parseEnv({}))).toBe("local");
    expect(parseEnv({}).HOST).toBe("127.0.0.1");
    expect(authMode(parseEnv({ HOST: "::1" }))).toBe("local");
    expect(authMode(parseEnv({ HOST: "localhost", RETERM_AUTH: "off" }))).toBe("local");
  });
  it("team when bound to any other address or asked for", () => {
    expect(authMode(parseEnv({ HOST: "0.0.0.0" }))).toBe("team");
    expect(authMode(parseEnv({ HOST: "10.0.0.5" }))).toBe("team");
    expect(authMode(parseEnv({ RETERM_AUTH: "on" }))).toBe("team");
  });
  it("refuses to switch sign-in off on a network address, and rejects unknown values and short secrets", () => {
    expect(() => authMode(parseEnv({ HOST: "0.0.0.0", RETERM_AUTH: "off" }))).toThrow(/only allowed with a loopback HOST/);
    expect(() => parseEnv({ RETERM_AUTH: "maybe" })).toThrow(/RETERM_AUTH/);
    expect(() => parseEnv({ RETERM_AUTH_SECRET: "short" })).toThrow(/RETERM_AUTH_SECRET/);
  });
  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.1.2.3", "[::1]", "localhost"].every(isLoopbackHost)).toBe(true);
    expect(["0.0.0.0", "::", "192.168.1.2", "example.com"].some(isLoopbackHost)).toBe(false);
  });
});
