// The S3-compatible driver (AWS S3, MinIO, Ceph…) through the AWS SDK: uploads stream in parts (lib-storage's
// Upload), downloads stream the object's body. Credentials, region and endpoint come from the SDK's usual variables
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL).
import fs from "node:fs";
import type { Readable } from "node:stream";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checkKey, type FileStorage, type StoredFile } from "./types.ts";

export interface S3Location {
  bucket: string;
  /** Prefix inside the bucket ("" or ending in "/"). */
  prefix: string;
}

/** `s3://bucket/some/prefix` → bucket and prefix. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error(`RETERM_STORAGE: ${JSON.stringify(url)} is not s3://bucket[/prefix]`);
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: m[1]!, prefix: prefix ? `${checkKey(prefix)}/` : "" };
}

export class S3Storage implements FileStorage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;

  constructor(
    readonly location: S3Location,
    config: S3ClientConfig = {},
  ) {
    // An explicit endpoint (MinIO, Ceph, a local server) usually means path-style addressing.
    const endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
    this.client = new S3Client({
      region: process.env.AWS_REGION ?? "us-east-1",
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      ...config,
    });
  }

  private key(key: string): string {
    return `${this.location.prefix}${checkKey(key)}`;
  }

  async putFile(key: string, file: string): Promise<void> {
    await new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.key(key), Body: fs.createReadStream(file) },
    }).done();
  }

  async open(key: string): Promise<StoredFile | null> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
      return { body: r.Body as Readable, size: r.ContentLength ?? 0 };
    } catch (e) {
      if (e instanceof NoSuchKey || (e as { name?: string }).name === "NoSuchKey") return null;
      throw e;
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
  }

  async removePrefix(prefix: string): Promise<void> {
    const Prefix = this.key(prefix);
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix, ContinuationToken }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: keys, Quiet: true } }));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
}
