import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries (docs/architecture.md), written once per layer. In flat config the last block that matches a
// file sets a rule, so a later block could silently loosen an earlier one; here no two boundary blocks match the same
// file: LAYERS are listed most specific first and each block ignores every earlier layer's files. Each layer lists
// all of its bans (no inheritance to get wrong); tests/lint/boundaries.test.ts lints a probe import per layer and ban.

/** What may be banned, each with the reason shown to whoever trips it. */
export const BANS = {
  prisma: {
    group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated/**", "better-sqlite3", "pg"],
    message: "Database drivers and Prisma are only used in lib/db (the data access layer).",
  },
  xterm: {
    group: ["@xterm/*"],
    message: "xterm is only imported in components/terminal (and @xterm/headless in lib/services/replay/headless).",
  },
  xtermBrowser: { group: ["@xterm/xterm", "@xterm/addon-*"], message: "Server-side emulation uses @xterm/headless only." },
  authLib: {
    group: ["better-auth", "better-auth/*", "@better-auth/*"],
    message: "better-auth is bound to the database in lib/db/auth; call lib/services/accounts instead.",
  },
  storageSdk: {
    group: ["@aws-sdk/*", "s3rver"],
    message: "Object storage SDKs are only used in lib/storage (its drivers; tests start s3rver).",
  },
  jobQueue: {
    group: ["pg-boss"],
    message: "The job queue library is only used in lib/jobs (the PostgreSQL delivery); services enqueue through lib/jobs.",
  },
  headless: {
    group: ["**/services/replay/headless/*", "@/lib/services/replay/headless/*"],
    message: "The headless emulator is internal to lib/services/replay: import lib/services/replay (index.ts).",
  },
  db: {
    group: ["@/lib/db", "@/lib/db/*", "**/lib/db", "**/lib/db/**", "../db/*", "../../db/*", "**/db/repositories/*"],
    message: "Entry points (pages, components, server actions, the CLI) call lib/services, never lib/db.",
  },
  services: {
    group: [
      "@/lib/services/*",
      "**/lib/services/**",
      "../services/*",
      "../services/**",
      "../../services/*",
      "@/lib/actions/*",
      "**/lib/actions/**",
    ],
    message: "Lower layers never import upward: lib/services and lib/actions call them, not the other way round.",
  },
  ui: { group: ["react", "react-dom", "react/*", "next", "next/*"], message: "Below the UI: no React or Next here." },
};

const ALL_SOURCES = ["**/*.{ts,tsx,js,mjs,cjs}"];
/** Most specific first. `bans` is the whole list for the layer; `off` turns the rule off (benchmarks comparing with banned code). */
export const LAYERS = [
  { name: "keyframe bench", files: ["bench/keyframes.ts", "bench/addon-serialize-cjs.d.ts"], off: true },
  { name: "browser terminal", files: ["components/terminal/**"], bans: ["prisma", "authLib", "storageSdk", "jobQueue", "db", "headless"] },
  {
    name: "server-side emulator",
    files: ["lib/services/replay/headless/**"],
    bans: ["prisma", "xtermBrowser", "authLib", "storageSdk", "jobQueue", "ui"],
  },
  { name: "auth binding", files: ["lib/db/auth/**"], bans: ["xterm", "storageSdk", "jobQueue", "services", "ui"] },
  { name: "data layer tests", files: ["lib/db/**/*.test.ts"], bans: ["xterm", "authLib", "storageSdk", "jobQueue", "ui"] },
  { name: "data layer", files: ["lib/db/**"], bans: ["xterm", "authLib", "storageSdk", "jobQueue", "services", "ui"] },
  {
    name: "infrastructure",
    files: ["prisma*.config.ts", "tests/helpers/**", "bench/**"],
    bans: ["xterm", "authLib", "storageSdk", "jobQueue"],
  },
  { name: "storage", files: ["lib/storage/**"], bans: ["prisma", "xterm", "authLib", "jobQueue", "db", "services", "ui"] },
  { name: "storage tests", files: ["tests/integration/export-storage.test.ts"], bans: ["prisma", "xterm", "authLib", "jobQueue", "db"] },
  { name: "deployment test", files: ["e2e/deploy/**"], bans: ["prisma", "xterm", "authLib", "jobQueue"] },
  { name: "jobs", files: ["lib/jobs/**"], bans: ["prisma", "xterm", "authLib", "storageSdk", "services", "ui", "headless"] },
  {
    name: "domain",
    files: ["lib/domain/**"],
    bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "services", "ui", "headless"],
  },
  { name: "importer tests", files: ["lib/importers/**/*.test.ts"], bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue"] },
  {
    name: "importers",
    files: ["lib/importers/**"],
    bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "services", "ui"],
  },
  {
    name: "exporters",
    files: ["lib/exporters/**"],
    bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "services", "ui"],
  },
  {
    name: "request gate",
    files: ["lib/http/**", "proxy.ts"],
    bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "headless"],
  },
  { name: "services", files: ["lib/services/**"], bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue"] },
  { name: "server actions", files: ["lib/actions/**"], bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "headless"] },
  { name: "CLI tests", files: ["cli/**/*.test.ts"], bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue"] },
  { name: "CLI", files: ["cli/**"], bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "headless"] },
  {
    name: "pages and components",
    files: ["app/**", "components/**"],
    bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue", "db", "headless"],
  },
  { name: "everything else", files: ALL_SOURCES, bans: ["prisma", "xterm", "authLib", "storageSdk", "jobQueue"] },
];

const boundaryBlocks = LAYERS.map((layer, i) => ({
  name: `boundaries/${layer.name}`,
  files: layer.files,
  ignores: LAYERS.slice(0, i).flatMap((l) => l.files),
  rules: { "no-restricted-imports": layer.off ? "off" : ["error", { patterns: layer.bans.map((b) => BANS[b]) }] },
}));

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    "node_modules/**",
    "lib/db/generated/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "bench/out/**",
  ]),
  { rules: { "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }] } },
  ...boundaryBlocks,
  {
    // Prisma's schema engine (WebAssembly, driven through wasm-bindgen internals that change with its builds) only
    // writes new migrations for developers: the app, the CLI, tests and benchmarks apply them with lib/db/migrations.
    // A rule of its own, so the per-layer import rules above stay as they are.
    ignores: ["scripts/new-migration.ts", "lib/db/schema-engine.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@prisma/schema-engine-wasm", "@prisma/schema-engine-wasm/*", "**/schema-engine", "**/schema-engine.ts"],
              message: "Only scripts/new-migration.ts loads the schema engine; start-up applies migrations with lib/db/migrations.",
            },
          ],
        },
      ],
    },
  },
]);
