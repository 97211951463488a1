import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries (docs/architecture.md): Prisma and the generated clients only in lib/db; xterm only in
// components/terminal, except the server-side headless emulator (lib/services/replay/headless, @xterm/headless only);
// lib/domain is pure (no React, Next, Prisma or db); the CLI goes through lib/services, never lib/db.
const prismaPatterns = [
  { group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated/**", "better-sqlite3", "pg"], message: "Database drivers and Prisma are only used in lib/db (the data access layer)." },
];
const xtermPatterns = [{ group: ["@xterm/*"], message: "xterm is only imported in components/terminal." }];
const headlessEmulatorPatterns = [{ group: ["**/services/replay/headless/*", "@/lib/services/replay/headless/*"], message: "The headless emulator is internal to lib/services/replay: import lib/services/replay (index.ts)." }];
const dbLayerPatterns = [{ group: ["@/lib/db/*", "**/lib/db/*", "../db/*", "../../db/*", "**/db/repositories/*"], message: "Pages and components call lib/services, never lib/db." }];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "node_modules/**", "lib/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "bench/out/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns] }],
    },
  },
  {
    // The db layer itself, Prisma's config files, and test/bench infrastructure that creates throwaway databases.
    files: ["lib/db/**", "prisma*.config.ts", "tests/helpers/**", "bench/**"],
    rules: { "no-restricted-imports": ["error", { patterns: xtermPatterns }] },
  },
  {
    // The server-side terminal emulator for keyframes: @xterm/headless only (never the browser build).
    files: ["lib/services/replay/headless/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, { group: ["@xterm/xterm", "@xterm/addon-*"], message: "Server-side emulation uses @xterm/headless only." }] }] },
  },
  {
    // The keyframe benchmark compares with the serialize addon (the previous keyframes) in the same run.
    files: ["bench/keyframes.ts", "bench/addon-serialize-cjs.d.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["cli/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...headlessEmulatorPatterns, { group: ["**/lib/db/repositories/*", "**/lib/db/bulk/*"], message: "The CLI calls lib/services for data (lib/db only for connecting and migrating)." }] }] },
  },
  {
    files: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...dbLayerPatterns] }] },
  },
  {
    files: ["app/**", "components/**"],
    ignores: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, ...headlessEmulatorPatterns] }] },
  },
  {
    files: ["lib/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, { group: ["react", "react-dom", "next", "next/*", "../services/*", "../db/*"], message: "lib/domain is pure TypeScript." }] },
      ],
    },
  },
]);
