/**
 * An S3-compatible server on a free loopback port (s3rver, objects in a temp directory), so the
 * server's real AWS SDK code runs over HTTP. s3rver knows one access key id, S3RVER, and refuses
 * any other; it does not check SigV4 signatures, so the secret is not verified.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The SVC_S3_* variables that point a server at this bucket. */
  env: Record<string, string>;
  /** A client of our own, to look into the bucket. */
  client: S3Client;
  /** Object writes (PUT requests) the server has received so far. */
  puts(): number;
  /** Keys and sizes of every object in the bucket. */
  list(): Promise<{ key: string; size: number }[]>;
  close(): Promise<void>;
}

export async function startS3(bucket = "inventory-files"): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "svc-s3-"));
  const s3 = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3.configureBuckets();
  const handle = s3.callback();
  let puts = 0;
  const server = createServer((req, res) => {
    if (req.method === "PUT") puts++;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    env: {
      SVC_S3_ENDPOINT: endpoint,
      SVC_S3_BUCKET: bucket,
      SVC_S3_REGION: "us-east-1",
      SVC_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      SVC_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      SVC_S3_FORCE_PATH_STYLE: "1",
    },
    client,
    puts: () => puts,
    async list() {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (out.Contents ?? []).map((o) => ({ key: o.Key ?? "", size: o.Size ?? -1 }));
    },
    async close() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
