import { describe, expect, it } from "vitest";
import { PEER_HEADER as SERVER_HEADER, PEER_MARK as SERVER_MARK, stampPeer } from "./peer-header.mjs";
import { PEER_HEADER } from "../lib/domain/network/client-address.ts";
import { PEER_MARK } from "../lib/services/accounts/client-address.ts";

describe("cli/peer-header.mjs", () => {
  it("uses the header name and process mark the app reads", () => {
    expect(SERVER_HEADER).toBe(PEER_HEADER);
    expect(SERVER_MARK).toBe(PEER_MARK);
  });

  it("overwrites a peer header the client sent with the socket's address", () => {
    const req = { headers: { [PEER_HEADER]: "198.51.100.7", host: "x" }, socket: { remoteAddress: "203.0.113.5" } };
    stampPeer(req as never);
    expect(req.headers[PEER_HEADER]).toBe("203.0.113.5");
    const gone = { headers: { [PEER_HEADER]: "198.51.100.7" }, socket: { remoteAddress: undefined } };
    stampPeer(gone as never);
    expect(gone.headers[PEER_HEADER]).toBe("");
  });
});
