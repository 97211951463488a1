// Browser side of POST /api/imports: XHR gives upload progress; the NDJSON response is parsed as it arrives.
export interface UploadProgress {
  phase: "uploading" | "importing" | "done" | "error";
  sentBytes: number;
  totalBytes: number;
  imported: number;
  duplicates: number;
  failed: number;
}

export interface UploadResult {
  imported: number;
  duplicates: number;
  failed: number;
  rolledBack: boolean;
  files: { file: string; format: string | null; imported: number; duplicates: number; failed: number; skipped?: string }[];
  errors: string[];
  warnings: string[];
  inferredForks: number;
  jobId: string | null;
}

export function uploadFile(file: File, params: Record<string, string>, onProgress: (p: UploadProgress) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const qs = new URLSearchParams({ name: file.name, ...params });
    xhr.open("POST", `/api/imports?${qs.toString()}`);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    const state: UploadProgress = { phase: "uploading", sentBytes: 0, totalBytes: file.size, imported: 0, duplicates: 0, failed: 0 };
    let seen = 0;
    let settled = false;
    const handleLines = () => {
      const text = xhr.responseText;
      const lines = text.slice(seen).split("\n");
      const complete = lines.slice(0, -1);
      seen += complete.reduce((n, l) => n + l.length + 1, 0);
      for (const line of complete) {
        if (!line.trim()) continue;
        let msg: { type: string; [k: string]: unknown };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.type === "progress") {
          Object.assign(state, {
            phase: "importing",
            imported: Number(msg.imported),
            duplicates: Number(msg.duplicates),
            failed: Number(msg.failed),
          });
          onProgress({ ...state });
        } else if (msg.type === "result" && !settled) {
          settled = true;
          onProgress({ ...state, phase: "done" });
          resolve(msg as unknown as UploadResult);
        } else if (msg.type === "error" && !settled) {
          settled = true;
          onProgress({ ...state, phase: "error" });
          reject(new Error(String(msg.message)));
        }
      }
    };
    xhr.upload.onprogress = (e) => {
      state.sentBytes = e.loaded;
      onProgress({ ...state });
    };
    xhr.upload.onload = () => onProgress({ ...state, phase: "importing", sentBytes: file.size });
    xhr.onprogress = handleLines;
    xhr.onload = () => {
      if (xhr.status >= 400) {
        let message = `upload failed (HTTP ${xhr.status})`;
        try {
          message = JSON.parse(xhr.responseText).error.message ?? message;
        } catch {
          /* keep the generic message */
        }
        settled = true;
        reject(new Error(message));
        return;
      }
      handleLines();
      if (!settled) reject(new Error("the server closed the connection before the import finished"));
    };
    xhr.onerror = () => reject(new Error("network error while uploading"));
    xhr.send(file);
  });
}
