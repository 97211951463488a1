// The local-directory driver: one machine, or several sharing a mounted folder.
import fs from "node:fs";
import path from "node:path";
import { checkKey, type FileStorage, type StoredFile } from "./types.ts";

export class LocalStorage implements FileStorage {
  readonly kind = "local" as const;
  constructor(readonly root: string) {}

  private at(key: string): string {
    return path.join(this.root, ...checkKey(key).split("/").filter(Boolean));
  }

  async putFile(key: string, file: string): Promise<void> {
    const to = this.at(key);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const part = `${to}.part`;
    await fs.promises.copyFile(file, part);
    await fs.promises.rename(part, to);
  }

  async open(key: string): Promise<StoredFile | null> {
    const file = this.at(key);
    try {
      const { size } = await fs.promises.stat(file);
      return { body: fs.createReadStream(file), size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
  }

  async check(): Promise<void> {
    await fs.promises.mkdir(this.root, { recursive: true });
    await fs.promises.access(this.root, fs.constants.W_OK);
  }

  async removePrefix(prefix: string): Promise<void> {
    await fs.promises.rm(this.at(prefix), { recursive: true, force: true });
  }
}
