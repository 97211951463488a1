// `next start` with a thin gate in front for what Next itself fails on before proxy.ts or any route runs: methods a
// fetch Request cannot represent (TRACE, TRACK, CONNECT: Next answers 500 with a stack in the log) get 405, and paths
// that are not valid percent-encoded UTF-8 (/trajectories/%ff) get 400. Everything else goes to Next untouched; the
// real checks (Host, Origin) are lib/http/request-guard.ts, run by proxy.ts and the route() wrapper. It also hands
// the socket's remote address to the app in a header of its own (cli/peer-header.mjs): Next.js gives route handlers
// and server actions no other way to know the peer, and without it forwarded headers could never be trusted.
// Usage: node cli/next-server.mjs -p <port> [-H <host>]
import http from "node:http";
import path from "node:path";
import next from "next";
import { markPeerHeaderSet, stampPeer } from "./peer-header.mjs";

const args = process.argv.slice(2);
const arg = (flag, fallback) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const port = Number(arg("-p", process.env.PORT ?? "3000"));
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`next-server: -p must be a port number, got ${arg("-p", "")}`);
  process.exit(2);
}
const hostname = arg("-H", undefined);
const UNFETCHABLE = new Set(["TRACE", "TRACK", "CONNECT"]);

markPeerHeaderSet();
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

function refuse(res, status, code, message, headers = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

function decodable(url) {
  try {
    decodeURIComponent((url ?? "/").split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

const server = http.createServer((req, res) => {
  if (UNFETCHABLE.has((req.method ?? "").toUpperCase())) {
    refuse(res, 405, "METHOD_NOT_ALLOWED", `method ${req.method} is not allowed`, {
      allow: "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE",
    });
    return;
  }
  if (!decodable(req.url)) {
    refuse(res, 400, "INVALID_INPUT", "the URL path is not valid percent-encoded UTF-8");
    return;
  }
  stampPeer(req);
  handle(req, res);
});
server.listen(port, hostname, () => console.log(`✓ Ready on http://${hostname ?? "localhost"}:${port}`));
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
