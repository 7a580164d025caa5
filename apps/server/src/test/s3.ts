import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3FileStoreOptions } from '../adapters/s3-file-store';
import { createFairTurns } from '../db/fair-turns';

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

interface FilesystemStore {
  putObject(object: { bucket: string; key: string }): Promise<{ size: number }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  getResourcePath(bucket: string, key: string, resource: string): string;
}

/**
 * s3rver's files race where S3 does not. A PUT of a small body is answered before its file is
 * written, and a DELETE removes a key's folder once it looks empty: a DELETE of one key while
 * another key of the folder is being written removes the folder under that write, and s3rver
 * throws ENOENT outside any request (two instances' readiness probes did). Here its writes and
 * deletes take turns, and a PUT ends once its file holds the object's bytes, as on S3.
 */
function writeInTurns(server: S3rver) {
  const store = (server as unknown as { store: FilesystemStore }).store;
  const inTurn = createFairTurns();
  const put = store.putObject.bind(store);
  const remove = store.deleteObject.bind(store);
  store.putObject = (object) =>
    inTurn(async () => {
      const stored = await put(object);
      const file = store.getResourcePath(object.bucket, object.key, 'object');
      for (let waited = 0; waited < 5_000; waited += 5) {
        if ((await stat(file).catch(() => undefined))?.size === stored.size) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return stored;
    });
  store.deleteObject = (bucket, key) => inTurn(() => remove(bucket, key));
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
    writeInTurns(next);
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
