// Renders public/icon.svg into the app's icon set (favicon.ico with 16/32/48 px PNGs, apple-touch-icon, 192/512 px
// manifest icons) and the 1200×630 social preview, with the Chromium the e2e tests use. Re-run after changing the
// icon: `npx tsx scripts/make-icons.ts`.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const pub = path.resolve(import.meta.dirname, "..", "public");
const svg = fs.readFileSync(path.join(pub, "icon.svg"), "utf8");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();

async function png(size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

/** An .ico holding PNG images (supported by every current browser). */
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

const favicon = [];
for (const size of [16, 32, 48]) favicon.push({ size, data: await png(size) });
fs.writeFileSync(path.join(pub, "favicon.ico"), ico(favicon));
fs.writeFileSync(path.join(pub, "apple-touch-icon.png"), await png(180));
fs.writeFileSync(path.join(pub, "icon-192.png"), await png(192));
fs.writeFileSync(path.join(pub, "icon-512.png"), await png(512));

await page.setViewportSize({ width: 1200, height: 630 });
await page.setContent(`<html><body style="margin:0;width:1200px;height:630px;background:#0b1120;color:#e2e8f0;font-family:ui-sans-serif,system-ui,sans-serif;display:flex;flex-direction:column;justify-content:center;padding:0 96px;box-sizing:border-box">
  <div style="display:flex;align-items:center;gap:28px">${svg.replace("<svg ", '<svg width="112" height="112" ')}<div style="font-size:76px;font-weight:700;letter-spacing:-1px">ReTerm Studio</div></div>
  <div style="margin-top:28px;font-size:34px;color:#94a3b8;max-width:960px;line-height:1.35">Import, replay, annotate and curate terminal-agent trajectories — recovery attempts forked from failure states become training data.</div>
  <pre style="margin-top:40px;font-size:24px;background:#0f172a;border:1px solid #1e293b;border-radius:12px;padding:20px 28px;color:#34d399;width:fit-content">$ reterm import runs/ --strict\n<span style="color:#e2e8f0">every source read completely · fork links resolved · search indexed</span></pre>
</body></html>`);
fs.writeFileSync(path.join(pub, "og-image.png"), await page.screenshot());
await browser.close();
console.log(`icons written to ${pub}`);
