import type { IncomingMessage } from "node:http";

export declare const PEER_HEADER: string;
export declare const PEER_MARK: symbol;
export declare function markPeerHeaderSet(): void;
export declare function stampPeer(req: Pick<IncomingMessage, "headers" | "socket">): void;
