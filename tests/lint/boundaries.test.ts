// The import boundaries still fire: for every layer of eslint.config.mjs, a probe file at a path in that layer
// importing one module of each kind is linted with the project's real configuration. Each of the layer's bans must
// report, and nothing else may (a later block loosening an earlier one, or a layer banning more than it says, fails).
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { LAYERS, type Ban } from "../../eslint.config.mjs";
const root = path.resolve(import.meta.dirname, "../..");

/** A module each ban is about. */
const PROBES: Record<Ban, string> = {
  prisma: "@prisma/client",
  xterm: "@xterm/xterm",
  xtermBrowser: "@xterm/addon-fit",
  authLib: "better-auth",
  storageSdk: "@aws-sdk/client-s3",
  jobQueue: "pg-boss",
  headless: "@/lib/services/replay/headless/emulator",
  db: "@/lib/db/client",
  services: "@/lib/services/context",
  ui: "react",
};

/** Probes another ban covers too: @xterm/addon-fit is xterm, @xterm/xterm is the browser build, the headless
 * emulator lives in lib/services. */
const ALSO_BANNED_BY: Partial<Record<Ban, Ban[]>> = { xtermBrowser: ["xterm"], xterm: ["xtermBrowser"], headless: ["services"] };

/** A file path inside the layer that no earlier layer claims. */
function probePath(files: readonly string[]): string {
  const glob = files[0]!;
  if (glob === "**/*.{ts,tsx,js,mjs,cjs}") return "scripts/boundary-probe.ts";
  if (glob === "prisma*.config.ts") return "prisma.probe.config.ts";
  if (glob.endsWith("/**/*.test.ts")) return glob.replace("/**/*.test.ts", "/boundary-probe.test.ts");
  return glob.replace(/\/\*\*$/, "/boundary-probe.ts");
}

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function restricted(file: string, spec: string): Promise<boolean> {
  const [result] = await eslint.lintText(`import * as probe from "${spec}";\nexport const used = probe;\n`, {
    filePath: path.join(root, file),
  });
  return result!.messages.some((m) => m.ruleId === "no-restricted-imports");
}

describe("import boundaries", () => {
  for (const layer of LAYERS.filter((l) => !l.off)) {
    it(`${layer.name}: exactly its bans fire`, async () => {
      const file = probePath(layer.files);
      const bans = new Set<Ban>(layer.bans);
      for (const [ban, spec] of Object.entries(PROBES) as [Ban, string][]) {
        const want = bans.has(ban) || (ALSO_BANNED_BY[ban] ?? []).some((b) => bans.has(b));
        expect(await restricted(file, spec), `${file} importing ${spec} (${ban})`).toBe(want);
      }
    }, 60_000);
  }

  it("keeps the house rules: Prisma only in the data layer, entry points never reach lib/db, lib/domain is pure", () => {
    const bansOf = (name: string) => new Set(LAYERS.find((l) => l.name === name)!.bans);
    for (const l of LAYERS.filter((x) => !x.off && !["data layer", "data layer tests", "auth binding", "infrastructure"].includes(x.name)))
      expect(l.bans, l.name).toContain("prisma");
    for (const entry of ["pages and components", "server actions", "CLI", "browser terminal"])
      expect([...bansOf(entry)], entry).toContain("db");
    for (const pure of ["domain", "importers", "exporters"])
      expect([...bansOf(pure)], pure).toEqual(expect.arrayContaining(["db", "services", "ui", "prisma"]));
    for (const l of LAYERS.filter((x) => !x.off && x.name !== "browser terminal" && x.name !== "server-side emulator"))
      expect(l.bans, l.name).toContain("xterm");
  });

  it("a layer's probe file is matched by that layer and no earlier one", () => {
    expect(new Set(LAYERS.map((l) => probePath(l.files))).size).toBe(LAYERS.length);
  });
});
