import { describe, expect, it } from "vitest";
import { parseEnv, publicBaseUrl } from "./env";

describe("publicBaseUrl (metadataBase)", () => {
  it("uses RETERM_BASE_URL when set, path included", () => {
    const env = parseEnv({ RETERM_BASE_URL: "https://reterm.lab.example/studio" });
    expect(publicBaseUrl(env).href).toBe("https://reterm.lab.example/studio");
    expect(new URL("/og-image.png", publicBaseUrl(env)).href).toBe("https://reterm.lab.example/og-image.png");
  });

  it("falls back to the local listen address and port", () => {
    expect(publicBaseUrl(parseEnv({})).href).toBe("http://127.0.0.1:3000/");
    expect(publicBaseUrl(parseEnv({ PORT: "4100", HOST: "localhost" })).href).toBe("http://localhost:4100/");
  });

  it("turns wildcard bind addresses into localhost and brackets IPv6", () => {
    expect(publicBaseUrl(parseEnv({ HOST: "0.0.0.0", PORT: "80" })).href).toBe("http://localhost/");
    expect(publicBaseUrl(parseEnv({ HOST: "::" })).href).toBe("http://localhost:3000/");
    expect(publicBaseUrl(parseEnv({ HOST: "::1" })).href).toBe("http://[::1]:3000/");
  });
});
