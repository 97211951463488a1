// The one answer to "which address is this request from", for sign-in throttling and the audit log. The peer comes
// from the header cli/next-server.mjs writes (cli/peer-header.mjs) — believed only when this process was started by
// that server, which marks it; under plain `next start` nothing vouches for the header and the peer is unknown.
import { PEER_HEADER, resolveClientAddress } from "../../domain/network/client-address.ts";
import { getEnv } from "../../env.ts";

/** Same key as cli/peer-header.mjs (PEER_MARK). */
export const PEER_MARK = Symbol.for("reterm.peer-header");

/** Whether this process was started by cli/next-server.mjs, which sets the peer header on every request. */
export function peerHeaderVouched(): boolean {
  return (globalThis as Record<symbol, unknown>)[PEER_MARK] === true;
}

/** The direct peer's address when the serving process vouches for it, else null. */
export function peerAddress(headers: Headers): string | null {
  return peerHeaderVouched() ? headers.get(PEER_HEADER) : null;
}

/** The client's address: the peer, or what a proxy in RETERM_TRUSTED_PROXIES reports; "unknown" when no peer is known. */
export function clientAddress(headers: Headers): string {
  return resolveClientAddress({ peer: peerAddress(headers), headers, trusted: getEnv().RETERM_TRUSTED_PROXIES });
}
