// The Node.js versions ReTerm Studio runs on: Prisma 7 and vite 8 need ^20.19 || >=22.12 (package.json "engines").
// Older versions fail later with errors that do not say why, so the entry points check first (require-node.ts).

export const SUPPORTED_NODE = "^20.19 || >=22.12";

/** null when `version` (e.g. process.versions.node, "20.19.1") is supported, else one line saying what to do. */
export function nodeVersionProblem(version: string): string | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return `cannot read the Node.js version "${version}"; ReTerm Studio needs Node.js ${SUPPORTED_NODE}`;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const ok = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
  return ok
    ? null
    : `ReTerm Studio needs Node.js ${SUPPORTED_NODE}, this is ${m[0].replace(/^v/, "")}: install a newer Node.js (20.19+, or 22.12+) and run npm install again.`;
}
