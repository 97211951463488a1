// Types of what eslint.config.mjs exports besides the config (read by tests/lint/boundaries.test.ts).
export type Ban = "prisma" | "xterm" | "xtermBrowser" | "authLib" | "storageSdk" | "jobQueue" | "headless" | "db" | "services" | "ui";
export declare const BANS: Record<Ban, { group: string[]; message: string }>;
export declare const LAYERS: { name: string; files: string[]; bans?: Ban[]; off?: boolean }[];
declare const config: unknown[];
export default config;
