import { getDb, getDbConfig } from "../../db/client.ts";
import { pingDatabase } from "../../db/repositories/stats.ts";

export async function checkDatabase(): Promise<{ ok: boolean; provider: string; error?: string }> {
  const provider = getDbConfig().provider;
  try {
    await pingDatabase(getDb());
    return { ok: true, provider };
  } catch (e) {
    return { ok: false, provider, error: (e as Error).message.split("\n").at(-1) };
  }
}
