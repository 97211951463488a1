// `next start` with one gate in front: methods that a fetch Request cannot represent (TRACE, TRACK, CONNECT) make
// Next's request adapter throw before proxy.ts or any route runs, so `next start` answers them with a 500 and a stack
// in the log. They are refused here with 405; everything else goes to Next untouched (proxy.ts does the real checks).
// Usage: node cli/next-server.mjs -p <port> [-H <host>]
import http from "node:http";
import path from "node:path";
import next from "next";

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

const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  if (UNFETCHABLE.has((req.method ?? "").toUpperCase())) {
    res.writeHead(405, { "content-type": "application/json; charset=utf-8", allow: "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE", "cache-control": "no-store" });
    res.end(JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message: `method ${req.method} is not allowed` } }));
    return;
  }
  handle(req, res);
});
server.listen(port, hostname, () => console.log(`✓ Ready on http://${hostname ?? "localhost"}:${port}`));
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
