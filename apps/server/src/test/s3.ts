import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3FileStoreOptions } from '../adapters/s3-file-store';

/** s3rver's fixed credentials: it accepts these and no others. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The settings that point the portal at this server, for loadConfig or a server's env. */
  env: Record<string, string>;
  /** The same, for createS3FileStore. */
  options: S3FileStoreOptions;
  /** Every key in the bucket, asked of the server itself. */
  keys(): Promise<string[]>;
  /** Stops the server and keeps its objects, as an outage would. */
  down(): Promise<void>;
  /** Starts it again on the same port, with the objects it had. */
  up(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) in this process, on a free port of 127.0.0.1, keeping
 * its objects in a temporary folder, with one empty bucket.
 */
export async function startTestS3(bucket = 'portal-files'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'portal-s3-'));
  let port = 0;
  let server: S3rver | null = null;
  const up = async () => {
    if (server) return;
    const next = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    ({ port } = await next.run());
    server = next;
  };
  const down = async () => {
    const running = server;
    server = null;
    await running?.close();
  };
  await up();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY };
  const client = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    region: REGION,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    options: {
      bucket,
      endpoint,
      region: REGION,
      forcePathStyle: true,
      credentials,
    },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!);
    },
    down,
    up,
    async stop() {
      client.destroy();
      await down();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
