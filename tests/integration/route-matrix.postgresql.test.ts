// Route × role matrix on PostgreSQL (team mode). The entry table is tests/helpers/access/access-table.ts.
process.env.RETERM_AUTH = "on";
process.env.RETERM_AUTH_SECRET = "matrix-secret-matrix-secret-matrix-secret";
import { vi } from "vitest";
import { defineMatrixSuite, nextHeadersMock } from "../helpers/access/matrix-suite.ts";

vi.mock("server-only", () => ({}));
vi.mock("next/headers", async () => (await import("../helpers/access/matrix-suite.ts")).nextHeadersMock());
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));
void nextHeadersMock;

defineMatrixSuite("postgresql");
