import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "cli/**/*.test.ts", "tests/**/*.test.ts", "components/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests each create their own databases; files run in parallel workers.
    pool: "forks",
    maxWorkers: 2,
  },
});
