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

  // The file is opened before it is measured and streamed: a clean-up that deletes it afterwards leaves this reader its
  // open descriptor. Streaming by name raced the clean-up, and the late ENOENT was an uncaught stream error.
  async open(key: string): Promise<StoredFile | null> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.at(key), "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    try {
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    } catch (e) {
      await handle.close();
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
