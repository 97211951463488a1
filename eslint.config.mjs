import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries (docs/architecture.md): Prisma and the generated clients only in lib/db; xterm only in
// components/terminal, except the server-side headless emulator (lib/services/replay/headless, @xterm/headless only);
// lib/domain is pure (no React, Next, Prisma or db); better-auth only in lib/db/auth; cli/ and lib/actions call
// services, never lib/db. In flat config the last block that matches a file sets its rule, so order matters below.
const prismaPatterns = [
  { group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated/**", "better-sqlite3", "pg"], message: "Database drivers and Prisma are only used in lib/db (the data access layer)." },
  // Carried by every block that bans Prisma: object storage is reached through lib/storage only.
  { group: ["@aws-sdk/*", "s3rver"], message: "Object storage SDKs are only used in lib/storage (its drivers; tests start s3rver)." },
];
const xtermPatterns = [{ group: ["@xterm/*"], message: "xterm is only imported in components/terminal." }];
const authLibPatterns = [{ group: ["better-auth", "better-auth/*", "@better-auth/*"], message: "better-auth is bound to the database in lib/db/auth; call lib/services/accounts instead." }];
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
    // Services: no Prisma, no xterm, no better-auth (bound in lib/db/auth).
    files: ["lib/services/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...authLibPatterns] }] },
  },
  {
    // The server-side terminal emulator for keyframes: @xterm/headless only (never the browser build).
    files: ["lib/services/replay/headless/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...authLibPatterns, { group: ["@xterm/xterm", "@xterm/addon-*"], message: "Server-side emulation uses @xterm/headless only." }] }] },
  },
  {
    // The keyframe benchmark compares with the serialize addon (the previous keyframes) in the same run.
    files: ["bench/keyframes.ts", "bench/addon-serialize-cjs.d.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // The CLI is one more entry point: it parses argv and calls lib/services, never the data layer (its tests may set
    // up databases directly). Server actions likewise.
    files: ["cli/**", "lib/actions/**"],
    ignores: ["cli/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...prismaPatterns, ...xtermPatterns, ...headlessEmulatorPatterns, ...authLibPatterns, { group: ["**/lib/db/*", "**/lib/db/**", "@/lib/db/*", "../db/*", "../../db/*"], message: "The CLI and server actions call lib/services, never lib/db." }] },
      ],
    },
  },
  {
    files: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...dbLayerPatterns] }] },
  },
  {
    files: ["app/**", "components/**"],
    ignores: ["components/terminal/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, ...authLibPatterns, ...headlessEmulatorPatterns] }] },
  },
  {
    // The request gate and body readers run before any service: pure HTTP, no data access.
    files: ["lib/http/**", "proxy.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns] }] },
  },
  // --- exporters are pure writers over domain types; the CLI goes through services (it may only open and
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
        { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["**/lib/db/**", "!**/lib/db/client.ts"], message: "The CLI calls lib/services, never lib/db repositories." }] },
      ],
    },
  },
  // --- end exporters ---
  {
    // CLI commands call services, never the db layer (cli/reterm.ts and start.ts still open and close the client).
    files: ["cli/commands/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns] }] },
  },
  {
    // Annotation services reach the database only through lib/db/repositories/annotation and users.
    files: ["lib/services/annotation/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns] }] },
  },
  {
    // CLI commands are entry points like pages — services only, never the data layer.
    files: ["cli/commands/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["**/lib/db/**", "../../lib/db/*"], message: "CLI commands call lib/services, never lib/db." }] }] },
  },
  {
    // Analytics statistics are pure; charts never reach the database.
    files: ["lib/domain/analytics/**", "components/analytics/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns, ...dbLayerPatterns, { group: ["**/lib/db/**"], message: "Analytics UI and statistics never import the data layer." }] }] },
  },
  {
    // Failure modes: the services reach the database only through lib/db/repositories (no Prisma, no terminal).
    files: ["lib/services/failure-modes/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns, ...xtermPatterns] }] },
  },
  {
    // Importers are parsers below the services: they produce lib/domain types and their own (types.ts), and never
    // reach up into lib/services or the data layer (the import use case calls them, not the other way round).
    files: ["lib/importers/**"],
    ignores: ["lib/importers/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...prismaPatterns, ...xtermPatterns, { group: ["react", "react-dom", "next", "next/*", "../services/*", "../services/**", "**/lib/services/**", "../db/*", "../db/**", "**/lib/db/**"], message: "lib/importers never import lib/services or lib/db; shared types live in lib/importers/types.ts." }] },
      ],
    },
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
  {
    // Prisma's schema engine (WebAssembly, driven through wasm-bindgen internals that change with its builds) only
    // writes new migrations for developers: the app, the CLI, tests and benchmarks apply them with lib/db/migrations.
    // A rule of its own, so the per-folder import rules above stay as they are.
    ignores: ["scripts/new-migration.ts", "lib/db/schema-engine.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@prisma/schema-engine-wasm", "@prisma/schema-engine-wasm/*", "**/schema-engine", "**/schema-engine.ts"], message: "Only scripts/new-migration.ts loads the schema engine; start-up applies migrations with lib/db/migrations." }] },
      ],
    },
  },
  {
    // The storage drivers (the AWS SDK) and the tests that start a local S3-compatible server.
    files: ["lib/storage/**", "tests/integration/export-storage.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...prismaPatterns.slice(0, 1), ...xtermPatterns, ...dbLayerPatterns] }] },
  },
]);
