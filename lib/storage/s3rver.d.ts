// s3rver ships no types: the part of its API the storage tests use (a local S3-compatible server).
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
