import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries (docs/architecture.md): Prisma and the generated clients only in lib/db; xterm only in
// components/terminal; lib/domain is pure (no React, Next, Prisma or db); better-auth only in lib/db/auth; cli/ and
// lib/actions call services, never lib/db.
const prismaPatterns = [
  { group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated/**", "better-sqlite3", "pg"], message: "Database drivers and Prisma are only used in lib/db (the data access layer)." },
];
const xtermPatterns = [{ group: ["@xterm/*"], message: "xterm is only imported in components/terminal." }];
const authLibPatterns = [{ group: ["better-auth", "better-auth/*", "@better-auth/*"], message: "better-auth is bound to the database in lib/db/auth; call lib/services/auth instead." }];
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
    // Accounts (issue 12): pages, actions, components and the CLI reach accounts, sessions and audit through
    // lib/services; better-auth's Prisma adapter (lib/db/auth) is the only code that binds auth to the database.
    files: ["cli/**", "lib/actions/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, ...authLibPatterns] }] },
  },
  {
    files: ["lib/services/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...authLibPatterns] }] },
  },
  {
    files: ["app/**", "components/**"],
    ignores: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, ...authLibPatterns] }] },
  },
  {
    // The CLI parses argv and calls services, like a route; tests of it may set up databases directly.
    files: ["cli/**"],
    ignores: ["cli/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["**/lib/db/*", "**/lib/db/**", "@/lib/db/*"], message: "The CLI calls lib/services, never lib/db." }] }] },
  },
  {
    // The request gate and body readers run before any service: pure HTTP, no data access.
    files: ["lib/http/**", "proxy.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns] }] },
  },
  {
    // The CLI is one more entry point: it parses argv and calls lib/services, never the data layer.
    files: ["cli/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["**/lib/db/*", "**/lib/db/**"], message: "The CLI calls lib/services, never lib/db." }] }] },
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
