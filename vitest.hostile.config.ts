import path from "node:path";
import { defineConfig } from "vitest/config";

// The hostile-input suite (tests/hostile/*.hostile.ts) runs against a real server started from the production build,
// one file at a time: `npm run test:hostile` after `npx next build`.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/hostile/**/*.hostile.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
