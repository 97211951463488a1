// Hostile HTTP input against a real server (production build): zip bombs, oversized bodies and records, deep nesting,
// overlong names, non-JSON content types, cross-site writes, foreign Host names, unrepresentable methods and paths.
// Every case must leave the server answering /api/health within 1 s and get a clear answer. Fixed inputs (no
// randomness); run with `npm run test:hostile` after `npx next build`.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMissing, startServer, type RunningServer } from "./server.ts";
import { expectClearError, expectResponsive, runCase } from "./harness.ts";
import { declaredBomb, longNameEntry, lyingBomb, manyEntries, ratioBomb } from "./zip-bombs.ts";
import { generateTrajectories } from "../../lib/generator/generate.ts";

const missing = buildMissing();
if (missing) console.warn(`[hostile] skipped: ${missing}`);
const MB = 1024 * 1024;
// Small caps keep the cases quick; the code paths are the ones the defaults take.
const ENV = { RETERM_MAX_UPLOAD_MB: "64", RETERM_MAX_API_BODY_MB: "16", RETERM_MAX_RECORD_MB: "4", RETERM_MAX_ZIP_ENTRIES: "10000" };

let server: RunningServer;
// Built before the server starts: generating the 1 GB bomb blocks this process for seconds, long enough for the
// server to drop an idle keep-alive connection that fetch would then write into (EPIPE).
const bombs = {} as Record<"declared" | "liar" | "ratio" | "many" | "longName" | "one", Uint8Array>;
beforeAll(async () => {
  if (missing) return;
  Object.assign(bombs, {
    declared: declaredBomb(2500 * MB),
    liar: lyingBomb(1024 * MB, 4096),
    ratio: ratioBomb(200 * MB),
    many: manyEntries(20_000),
    longName: longNameEntry(60_000),
    one: manyEntries(1),
  });
  server = await startServer(ENV);
  // Warm up: the first request to each route loads its code; that is start-up, not a hostile case.
  for (const path of ["/api/health", "/trajectories", "/api/v1/trajectories?perPage=1"])
    await (await fetch(`${server.base}${path}`)).arrayBuffer();
  await (await upload("warm.zip", bombs.one)(server.base)).arrayBuffer();
  await (await postJson("[]")(server.base)).arrayBuffer();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const upload = (name: string, body: Uint8Array) => (base: string) =>
  fetch(`${base}/api/imports?name=${encodeURIComponent(name)}`, {
    method: "POST",
    body: Buffer.from(body),
    headers: { "content-type": "application/zip" },
  });
const postJson =
  (body: BodyInit, type = "application/json", extra: Record<string, string> = {}) =>
  (base: string) =>
    fetch(`${base}/api/v1/trajectories`, {
      method: "POST",
      body,
      headers: { "content-type": type, ...extra },
      duplex: "half",
    } as RequestInit);

/** A request fetch() refuses to make (TRACE) or a header it would rewrite (Host), through node:http. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return (base: string) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(base);
      // A fresh connection each time: a request that declares more body than it sends must not poison a pooled socket.
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0 })));
      });
      req.on("error", reject);
      if (body) req.write(body);
      req.end();
    });
}

const good = () => [...generateTrajectories({ count: 1, seed: 1616 })][0]!;

describe.skipIf(!!missing)("zip bombs", () => {
  it("refuses a zip declaring 2.5 GB from its central directory, without inflating", async () => {
    const o = await runCase(server, upload("bomb.zip", bombs.declared));
    expectClearError(o, 413, /2500 MB|ratio/);
    expectResponsive(o);
    expect(o.rssGrowth).toBeLessThan(150 * MB);
  });

  it("cuts off a real bomb that lies about its size (1 GB of zeros declared as 4 KB)", async () => {
    const o = await runCase(server, upload("liar.zip", bombs.liar));
    expectClearError(o, 413, /more than the 4096 bytes it declares: a zip bomb/);
    expectResponsive(o);
    expect(o.rssGrowth).toBeLessThan(150 * MB);
  });

  it("refuses an honest 1000:1 archive by its compression ratio", async () => {
    const o = await runCase(server, upload("zeros.zip", bombs.ratio));
    expectClearError(o, 413, /ratio \d+:1/);
    expectResponsive(o);
  });

  it("refuses 20,000 entries from the end record, fast", async () => {
    const o = await runCase(server, upload("many.zip", bombs.many));
    expectClearError(o, 413, /20000 entries, more than the 10000 allowed/);
    expect(o.ms).toBeLessThan(5000);
    expectResponsive(o);
  });
});

describe.skipIf(!!missing)("huge bodies and records", () => {
  it("fails one oversized record alone and imports the rest", async () => {
    const big = { ...good(), id: "huge-record", verifierOutput: "x".repeat(6 * MB) };
    const small = { ...good(), id: "small-record" };
    const o = await runCase(server, postJson(JSON.stringify([big, small])));
    expect(o.status, o.text.slice(0, 300)).toBe(200);
    const r = o.json as { imported: number; failed: number; results: { status: string; error?: string }[] };
    expect(r.results.map((x) => x.status)).toEqual(["failed", "imported"]);
    expect(r.results[0]!.error).toMatch(/request\[0\]: record is 6\.0 MB, more than the 4\.0 MB allowed per trajectory/);
    expectResponsive(o);
  });

  it("stops reading an endless streamed body at the cap (no Content-Length)", async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        sent += MB;
        if (sent > 200 * MB) c.close();
        else c.enqueue(new Uint8Array(MB).fill(0x20));
      },
    });
    const o = await runCase(server, postJson(endless, "application/x-ndjson"));
    expectClearError(o, 413, /larger than the 16 MB limit \(RETERM_MAX_API_BODY_MB\)/);
    expect(sent).toBeLessThan(200 * MB);
    expectResponsive(o);
  });

  it("refuses an upload over the limit by Content-Length before reading it", async () => {
    // Declares 65 MB but sends a few bytes: the answer must come from the header, not from waiting for the body.
    const o = await runCase(
      server,
      raw("POST", "/api/imports?name=a.jsonl", { "content-type": "application/octet-stream", "content-length": String(65 * MB) }, "{}"),
    );
    expectClearError(o, 413, /larger than the 64 MB limit/);
    expectResponsive(o);
  });
});

describe.skipIf(!!missing)("deep nesting and overlong names", () => {
  it("fails a trajectory nested 100,000 levels deep alone, with a clear message", async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const body = JSON.stringify({ ...good(), id: "deep" }).replace(/}$/, `,"metadata":{"deep":${deep}}}`);
    const o = await runCase(server, postJson(body));
    expect(o.status, o.text.slice(0, 300)).toBe(200);
    expect((o.json as { results: unknown[] }).results).toEqual([
      { index: 0, status: "failed", error: "request[0]: record nests more than 128 levels deep; refusing it" },
    ]);
    expectResponsive(o);
  });

  it("fails a 1 MB array nesting (parser stress) per record, never 500", async () => {
    const o = await runCase(server, postJson(`[${"[".repeat(MB / 2)}${"]".repeat(MB / 2)}]`));
    expect(o.status, o.text.slice(0, 300)).toBe(200);
    expect(o.text).toMatch(/nests more than 128 levels deep/);
    expectResponsive(o);
  });

  it("refuses an upload name of 10,000 characters and a zip entry name of 60,000", async () => {
    const name = await runCase(server, upload(`${"n".repeat(10_000)}.zip`, bombs.one));
    expectClearError(name, 400, /name/);
    expectResponsive(name);
    const entry = await runCase(server, upload("longname.zip", bombs.longName));
    expectClearError(entry, 422, /longname\.zip: cannot unpack an entry \(ENAMETOOLONG\)|points outside/);
    expectResponsive(entry);
  });

  it("answers a task id of 1 MB per record (imported or failed), never 500", async () => {
    const t = good();
    const o = await runCase(server, postJson(JSON.stringify({ ...t, id: "long-task", task: { ...t.task, id: "t".repeat(MB) } })));
    expect(o.status, o.text.slice(0, 300)).toBe(200);
    expectResponsive(o);
  });
});

describe.skipIf(!!missing)("content types, origins, hosts, methods, paths", () => {
  it("refuses non-JSON content types on the JSON route and form types on uploads (415)", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const o = await runCase(server, postJson(JSON.stringify(good()), type));
      expectClearError(o, 415, /Content-Type/);
      expectResponsive(o);
    }
    const up = await runCase(server, (base) =>
      fetch(`${base}/api/imports?name=a.jsonl`, {
        method: "POST",
        body: JSON.stringify(good()),
        headers: { "content-type": "text/plain" },
      }),
    );
    expectClearError(up, 415, /Content-Type "text\/plain"/);
  });

  it("refuses writes from another origin or a cross-site fetch (403), and imports nothing", async () => {
    const evil = await runCase(
      server,
      postJson(JSON.stringify({ ...good(), id: "evil" }), "application/json", { origin: "http://evil.example" }),
    );
    expectClearError(evil, 403, /another origin/);
    const site = await runCase(
      server,
      postJson(JSON.stringify({ ...good(), id: "evil2" }), "application/json", { "sec-fetch-site": "cross-site" }),
    );
    expectClearError(site, 403, /cross-site/);
    const list = await (await fetch(`${server.base}/api/v1/trajectories?q=evil&perPage=5`)).json();
    expect(JSON.stringify(list)).not.toMatch(/"evil2?"/);
  });

  it("refuses a foreign Host (DNS rebinding) on pages and APIs, TRACE, and undecodable paths", async () => {
    expectClearError(
      await runCase(server, raw("GET", "/trajectories", { host: "evil.example" })),
      421,
      /does not answer to the host name "evil.example"/,
    );
    expectClearError(await runCase(server, raw("GET", "/api/v1/trajectories", { host: "evil.example:80" })), 421, /evil\.example/);
    expectClearError(await runCase(server, raw("TRACE", "/trajectories")), 405, /TRACE is not allowed/);
    expectClearError(await runCase(server, raw("GET", "/trajectories/%ff")), 400, /percent-encoded/);
    expectClearError(await runCase(server, raw("GET", "/api/v1/trajectories/%ff/steps")), 400, /percent-encoded/);
  });

  it("answers unknown ids with 404", async () => {
    for (const path of ["/trajectories/no-such-id", "/tasks/no-such-id", "/runs/no-such-id"]) {
      const o = await runCase(server, (base) => fetch(`${base}${path}`));
      expect(o.status, path).toBe(404);
      expect(o.text).toMatch(/not found/i);
    }
    const api = await runCase(server, (base) => fetch(`${base}/api/v1/trajectories/no-such-id/steps?from=0&to=10`));
    expect(api.status).toBe(404);
  });
});
