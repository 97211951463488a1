import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries (docs/architecture.md): Prisma and the generated clients only in lib/db; xterm only in
// components/terminal; lib/domain is pure (no React, Next, Prisma or db).
const prismaPatterns = [
  { group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated/**", "better-sqlite3", "pg"], message: "Database drivers and Prisma are only used in lib/db (the data access layer)." },
];
const xtermPatterns = [{ group: ["@xterm/*"], message: "xterm is only imported in components/terminal." }];
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
    files: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...dbLayerPatterns] }] },
  },
  {
    files: ["app/**", "components/**"],
    ignores: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns] }] },
  },
  // --- issue 10: exporters are pure writers over domain types; the CLI goes through services (it may only open and
  // close the client and run migrations, which is process lifecycle, not data access).
  {
    files: ["lib/exporters/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, { group: ["react", "react-dom", "next", "next/*", "../services/*", "../services/**"], message: "lib/exporters are pure writers over lib/domain types." }] },
      ],
    },
  },
  {
    files: ["cli/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["**/lib/db/**", "!**/lib/db/client.ts", "!**/lib/db/schema-engine.ts"], message: "The CLI calls lib/services, never lib/db repositories." }] },
      ],
    },
  },
  // --- end issue 10 ---
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
