import { getDb, getDbConfig } from "../../db/client.ts";
import { pingDatabase } from "../../db/repositories/stats.ts";
import { fileStorage } from "../../storage/index.ts";

export async function checkDatabase(): Promise<{ ok: boolean; provider: string; error?: string }> {
  const provider = getDbConfig().provider;
  try {
    await pingDatabase(getDb());
    return { ok: true, provider };
  } catch (e) {
    return { ok: false, provider, error: (e as Error).message.split("\n").at(-1) };
  }
}

// A storage check reaches object storage over the network: health checks (polled by load balancers) reuse an answer
// for a few seconds.
const STORAGE_CHECK_TTL_MS = 10_000;
let lastStorageCheck: { at: number; result: { ok: boolean; kind: string; error?: string } } | null = null;

/** Whether the file storage (RETERM_STORAGE) can take files now. */
export async function checkStorage(now = Date.now()): Promise<{ ok: boolean; kind: string; error?: string }> {
  if (lastStorageCheck && now - lastStorageCheck.at < STORAGE_CHECK_TTL_MS) return lastStorageCheck.result;
  const storage = fileStorage();
  let result: { ok: boolean; kind: string; error?: string };
  try {
    await storage.check();
    result = { ok: true, kind: storage.kind };
  } catch (e) {
    result = { ok: false, kind: storage.kind, error: ((e as Error).message || (e as Error).name || "unreachable").split("\n").at(-1) };
  }
  lastStorageCheck = { at: now, result };
  return result;
}
