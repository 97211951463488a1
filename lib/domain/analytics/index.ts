export * from "./pass-at-k.ts";
export * from "./intervals.ts";
export * from "./bootstrap.ts";
export * from "./buckets.ts";
export * from "./metrics.ts";
