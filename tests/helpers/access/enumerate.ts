// What the file system says exists: pages (app/**/page.tsx), route handlers (app/**/route.ts and their exported
// HTTP methods) and server actions (exported functions of files that start with "use server").
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".") || e.name === "generated") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** app/(dashboard)/runs/[id]/page.tsx → /runs/[id] */
function urlPath(file: string): string {
  const rel = path
    .relative(path.join(ROOT, "app"), path.dirname(file))
    .split(path.sep)
    .filter((s) => s && !/^\(.*\)$/.test(s));
  return "/" + rel.join("/");
}

export interface FoundPage {
  path: string;
  file: string;
}
export interface FoundRoute {
  path: string;
  method: string;
  file: string;
}
export interface FoundAction {
  path: string;
  file: string;
  name: string;
}

export function findPages(): FoundPage[] {
  return walk(path.join(ROOT, "app"))
    .filter((f) => /\/page\.(tsx|ts|jsx|js)$/.test(f))
    .map((file) => ({ path: urlPath(file), file }));
}

export function findRoutes(): FoundRoute[] {
  return walk(path.join(ROOT, "app"))
    .filter((f) => /\/route\.(ts|js)$/.test(f))
    .flatMap((file) => {
      const src = fs.readFileSync(file, "utf8");
      const methods = [...src.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map(
        (m) => m[1]!,
      );
      return methods.map((method) => ({ path: urlPath(file), method, file }));
    });
}

export function findActions(): FoundAction[] {
  const files = ["app", "lib", "components"]
    .flatMap((d) => walk(path.join(ROOT, d)))
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f));
  return files.flatMap((file) => {
    const src = fs.readFileSync(file, "utf8");
    if (!/^(\s*\/\/[^\n]*\n)*\s*["']use server["']/.test(src)) return [];
    const names = [...src.matchAll(/export\s+(?:async\s+)?function\s+(\w+)|export\s+const\s+(\w+)\s*=/g)].map((m) => (m[1] ?? m[2])!);
    const rel = path.relative(ROOT, file);
    return names.map((name) => ({ path: `${rel}#${name}`, file, name }));
  });
}
