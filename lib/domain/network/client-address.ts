// Who is on the other end of a request. Forwarding headers (X-Forwarded-For, Forwarded, X-Real-IP) are written by
// whoever sends the request, so they count only when the direct peer — the TCP connection's address — is a proxy
// the operator listed in RETERM_TRUSTED_PROXIES. Sign-in throttling and the audit log both key on this answer.
import ipaddr from "ipaddr.js";

/** A parsed RETERM_TRUSTED_PROXIES entry: one address (a /32 or /128) or a CIDR range. */
export type TrustedRange = { text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** What a request's address is when the peer cannot be known (the app served without cli/next-server.mjs). */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * Request header cli/next-server.mjs sets to the socket's remote address after dropping any copy the client sent.
 * Keep the name in step with cli/peer-header.mjs (a test checks they agree).
 */
export const PEER_HEADER = "x-reterm-peer";

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4, IPv6 compressed), or null for anything else. */
export function canonicalAddress(raw: string): string | null {
  const s = raw.trim();
  // Only the plain forms: ipaddr.js would also read "127.1" or "0x7f.0.0.1", which no proxy writes.
  if (!ipaddr.IPv4.isValidFourPartDecimal(s) && !(s.includes(":") && ipaddr.IPv6.isValid(s))) return null;
  return ipaddr.process(s).toString();
}

/** Parse one entry: `10.0.0.5`, `10.0.0.0/8`, `fd00::/8`, `::1`. Throws with a message naming the entry. */
export function parseTrustedRange(entry: string): TrustedRange {
  const text = entry.trim();
  const [addr, bits, ...rest] = text.split("/");
  const address = addr === undefined ? null : canonicalAddress(addr);
  if (!address || rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) {
    throw new Error(`"${text}" is not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`);
  }
  const parsed = ipaddr.parse(address);
  const max = parsed.kind() === "ipv4" ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) throw new Error(`"${text}": a ${parsed.kind()} prefix is at most /${max}`);
  return { text, range: [parsed, prefix] };
}

/** Parse a comma-separated list (RETERM_TRUSTED_PROXIES); empty means no proxy is trusted. */
export function parseTrustedProxies(spec: string | undefined): TrustedRange[] {
  return (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseTrustedRange);
}

export function isTrusted(address: string, trusted: readonly TrustedRange[]): boolean {
  const canonical = canonicalAddress(address);
  if (!canonical || trusted.length === 0) return false;
  const parsed = ipaddr.parse(canonical);
  return trusted.some(({ range }) => range[0].kind() === parsed.kind() && parsed.match(range));
}

/** The `for=` values of a Forwarded header (RFC 7239), in order, without quotes, brackets or ports. */
export function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(",")) {
    for (const pair of element.split(";")) {
      const eq = pair.indexOf("=");
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== "for") continue;
      out.push(
        stripPort(
          pair
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1"),
        ),
      );
    }
  }
  return out;
}

/** `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`; anything else unchanged. */
function stripPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  return v4 ? v4[1]! : value;
}

/**
 * The hops a trusted peer reports, nearest last: X-Forwarded-For when present (the usual header; proxies append to
 * it), else Forwarded, else X-Real-IP (a single address some proxies set instead).
 */
function reportedHops(headers: Headers): string[] {
  const xff = headers.get("x-forwarded-for");
  if (xff?.trim()) return xff.split(",").map((s) => stripPort(s.trim()));
  const fwd = headers.get("forwarded");
  if (fwd?.trim()) return forwardedFor(fwd);
  const real = headers.get("x-real-ip");
  return real?.trim() ? [stripPort(real.trim())] : [];
}

/**
 * The client's address: the peer itself unless it is a trusted proxy; then the hops it reports are walked from the
 * nearest back, skipping further trusted proxies, and the first address not trusted is the client. A hop that is not
 * an IP address (`unknown`, an obfuscated `_node`) stops the walk at the last address known to be real, so a client
 * can never name an address of its choosing — only a trusted proxy's word moves the answer past the peer.
 */
export function resolveClientAddress(input: { peer: string | null; headers: Headers; trusted: readonly TrustedRange[] }): string {
  const peer = input.peer ? canonicalAddress(input.peer) : null;
  if (!peer) return UNKNOWN_ADDRESS;
  let client = peer;
  const hops = reportedHops(input.headers);
  while (isTrusted(client, input.trusted)) {
    const next = hops.pop();
    const address = next === undefined ? null : canonicalAddress(next);
    if (!address) break;
    client = address;
  }
  return client;
}
