// The direct peer's address, for the app: Next.js route handlers, server actions and proxy.ts see only headers, never
// the socket, so the server that owns the socket writes its remote address into a header of its own. Whatever a
// client sent under that name is overwritten, and the process marks itself so the app can tell this header from one
// a client sent to a server started some other way (plain `next start`), where the peer stays unknown.
// The names match lib/domain/network/client-address.ts (PEER_HEADER) and lib/services/accounts/client-address.ts (PEER_MARK).
export const PEER_HEADER = "x-reterm-peer";
export const PEER_MARK = Symbol.for("reterm.peer-header");

/** Call once at start-up, before serving: from then on the app trusts PEER_HEADER as set by stampPeer(). */
export function markPeerHeaderSet() {
  globalThis[PEER_MARK] = true;
}

/** Overwrite the peer header of a Node request with its socket's remote address (empty when the socket is gone). */
export function stampPeer(req) {
  req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
}
