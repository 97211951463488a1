// Identity matrix on PostgreSQL in local mode (loopback, no RETERM_AUTH): bad credentials on any page or route are refused
// (sign-in page / 401), never a server error. Team mode's run is in route-matrix.postgresql.test.ts.
delete process.env.RETERM_AUTH;
delete process.env.HOST;
import { vi } from "vitest";
import { defineLocalIdentitySuite, nextHeadersMock } from "../helpers/access/matrix-suite.ts";

vi.mock("server-only", () => ({}));
vi.mock("next/headers", async () => (await import("../helpers/access/matrix-suite.ts")).nextHeadersMock());
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));
void nextHeadersMock;

defineLocalIdentitySuite("postgresql");
