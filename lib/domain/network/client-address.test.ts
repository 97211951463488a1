import { describe, expect, it } from "vitest";
import { canonicalAddress, forwardedFor, isTrusted, parseTrustedProxies, resolveClientAddress, UNKNOWN_ADDRESS } from "./client-address.ts";

const resolve = (peer: string | null, headers: Record<string, string>, trusted = "") =>
  resolveClientAddress({ peer, headers: new Headers(headers), trusted: parseTrustedProxies(trusted) });

describe("resolveClientAddress", () => {
  it("with no trusted proxy, the peer is the client whatever the headers say", () => {
    const spoofed = { "x-forwarded-for": "198.51.100.7", "x-real-ip": "198.51.100.8", forwarded: "for=198.51.100.9" };
    expect(resolve("203.0.113.5", spoofed)).toBe("203.0.113.5");
    for (let i = 0; i < 25; i++) expect(resolve("203.0.113.5", { "x-forwarded-for": `10.0.${i}.1` })).toBe("203.0.113.5");
  });

  it("an untrusted peer's headers are ignored even when some proxy is trusted", () => {
    expect(resolve("203.0.113.5", { "x-forwarded-for": "198.51.100.7" }, "10.0.0.0/8")).toBe("203.0.113.5");
  });

  it("a trusted peer's X-Forwarded-For is walked from the nearest hop, skipping further trusted proxies", () => {
    expect(resolve("10.0.0.2", { "x-forwarded-for": "198.51.100.7" }, "10.0.0.2")).toBe("198.51.100.7");
    // The client prepended a lie; the proxy appended the real address: the rightmost untrusted hop wins.
    expect(resolve("10.0.0.2", { "x-forwarded-for": "1.2.3.4, 198.51.100.7" }, "10.0.0.0/8")).toBe("198.51.100.7");
    // Two proxies in a row (CDN → load balancer), both trusted.
    expect(resolve("10.0.0.2", { "x-forwarded-for": "198.51.100.7, 10.1.2.3" }, "10.0.0.0/8")).toBe("198.51.100.7");
  });

  it("CIDR ranges decide trust, for IPv4 and IPv6, and IPv4-mapped peers count as IPv4", () => {
    const h = { "x-forwarded-for": "198.51.100.7" };
    expect(resolve("192.168.4.20", h, "192.168.4.0/22")).toBe("198.51.100.7");
    expect(resolve("192.168.8.1", h, "192.168.4.0/22")).toBe("192.168.8.1");
    expect(resolve("::ffff:192.168.4.20", h, "192.168.4.0/22")).toBe("198.51.100.7");
    expect(resolve("fd00::1", h, "fd00::/8")).toBe("198.51.100.7");
    expect(resolve("fe80::1", h, "fd00::/8")).toBe("fe80::1");
    expect(resolve("::1", { "x-forwarded-for": "2001:db8::7" }, "::1")).toBe("2001:db8::7");
  });

  it("when every hop is trusted, the farthest one is the client; a non-address hop stops the walk", () => {
    expect(resolve("10.0.0.2", { "x-forwarded-for": "10.9.9.9" }, "10.0.0.0/8")).toBe("10.9.9.9");
    expect(resolve("10.0.0.2", { "x-forwarded-for": "198.51.100.7, unknown" }, "10.0.0.0/8")).toBe("10.0.0.2");
    expect(resolve("10.0.0.2", { "x-forwarded-for": "0x7f.1" }, "10.0.0.0/8")).toBe("10.0.0.2");
    expect(resolve("10.0.0.2", {}, "10.0.0.0/8")).toBe("10.0.0.2");
  });

  it("without X-Forwarded-For a trusted peer's Forwarded, then X-Real-IP, is used", () => {
    expect(resolve("10.0.0.2", { forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https' }, "10.0.0.2")).toBe("2001:db8:cafe::17");
    expect(resolve("10.0.0.2", { forwarded: "for=1.2.3.4, for=198.51.100.7:8080;by=10.0.0.2" }, "10.0.0.2")).toBe("198.51.100.7");
    expect(resolve("10.0.0.2", { "x-real-ip": "198.51.100.8" }, "10.0.0.2")).toBe("198.51.100.8");
    expect(resolve("10.0.0.2", { "x-forwarded-for": "198.51.100.7", "x-real-ip": "198.51.100.8" }, "10.0.0.2")).toBe("198.51.100.7");
  });

  it("an unknown peer (served without cli/next-server.mjs) gives 'unknown', never a header's word", () => {
    expect(resolve(null, { "x-forwarded-for": "198.51.100.7" }, "0.0.0.0/0")).toBe(UNKNOWN_ADDRESS);
    expect(resolve("", {})).toBe(UNKNOWN_ADDRESS);
    expect(resolve("not-an-ip", {})).toBe(UNKNOWN_ADDRESS);
  });
});

describe("parseTrustedProxies", () => {
  it("reads addresses and CIDR ranges, comma-separated; empty means none", () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(" , ")).toEqual([]);
    expect(parseTrustedProxies("10.0.0.5, 10.0.0.0/8,fd00::/8, ::1").map((r) => r.text)).toEqual([
      "10.0.0.5",
      "10.0.0.0/8",
      "fd00::/8",
      "::1",
    ]);
  });

  it("refuses what is not an address or range, naming the entry", () => {
    for (const bad of ["proxy.lab.example", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8/1", "10.0.0.0/x", "10.1", "loopback"]) {
      expect(() => parseTrustedProxies(`10.0.0.1,${bad}`), bad).toThrow(bad);
    }
  });

  it("a single address trusts only itself", () => {
    const t = parseTrustedProxies("10.0.0.5");
    expect(isTrusted("10.0.0.5", t)).toBe(true);
    expect(isTrusted("10.0.0.6", t)).toBe(false);
    expect(isTrusted("garbage", t)).toBe(false);
  });
});

describe("address helpers", () => {
  it("canonicalAddress keeps plain IPv4/IPv6 forms only", () => {
    expect(canonicalAddress(" 203.0.113.5 ")).toBe("203.0.113.5");
    expect(canonicalAddress("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(canonicalAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    for (const bad of ["127.1", "0x7f.0.0.1", "unknown", "", "203.0.113.5:80"]) expect(canonicalAddress(bad), bad).toBeNull();
  });

  it("forwardedFor reads every for= of every element", () => {
    expect(forwardedFor('for=192.0.2.43, For="[2001:db8:cafe::17]", for=unknown;proto=http')).toEqual([
      "192.0.2.43",
      "2001:db8:cafe::17",
      "unknown",
    ]);
    expect(forwardedFor("proto=https;by=10.0.0.1")).toEqual([]);
  });
});
