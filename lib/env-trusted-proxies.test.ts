import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("RETERM_TRUSTED_PROXIES", () => {
  it("is empty by default: no proxy is trusted", () => {
    expect(parseEnv({}).RETERM_TRUSTED_PROXIES).toEqual([]);
  });

  it("parses addresses and ranges", () => {
    expect(parseEnv({ RETERM_TRUSTED_PROXIES: "10.0.0.5,fd00::/8" }).RETERM_TRUSTED_PROXIES.map((r) => r.text)).toEqual([
      "10.0.0.5",
      "fd00::/8",
    ]);
  });

  it("stops start-up on a bad entry, naming the variable and the entry", () => {
    expect(() => parseEnv({ RETERM_TRUSTED_PROXIES: "10.0.0.5,proxy.lab" })).toThrow(EnvError);
    expect(() => parseEnv({ RETERM_TRUSTED_PROXIES: "10.0.0.5,proxy.lab" })).toThrow(
      /RETERM_TRUSTED_PROXIES: "proxy.lab" is not an IP address/,
    );
  });
});
