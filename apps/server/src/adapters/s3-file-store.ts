import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { checkKey, FileStoreUnavailableError, type FileStore } from './file-store';

export interface S3FileStoreOptions {
  bucket: string;
  /** Unset for AWS itself; the address of any other S3-compatible service. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (environment, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** How long to wait for a connection, in milliseconds. */
  connectTimeoutMs?: number;
  /** How long a connection may stay silent, mid-answer included, in milliseconds. */
  idleTimeoutMs?: number;
}

/** A store that does not answer must not hold a download or an upload for ever. */
const CONNECT_TIMEOUT_MS = 3_000;
const IDLE_TIMEOUT_MS = 10_000;

/** The SDK's names for a key that is not in the bucket (GetObject, and HEAD's bodiless 404). */
const MISSING = new Set(['NoSuchKey', 'NotFound']);

/** Files as objects of one bucket of an S3-compatible service. */
export function createS3FileStore(options: S3FileStoreOptions): FileStore {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    requestHandler: {
      connectionTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      // an idle limit, not a total one: a large installer may take minutes to move, never stall
      socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    },
    // checksums only where S3 requires them: several S3-compatible services refuse the rest
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;

  /** Sends one request; a missing key is null, any other failure is the store being unavailable. */
  async function attempt<T>(request: () => Promise<T>): Promise<T | null> {
    try {
      return await request();
    } catch (error) {
      if (MISSING.has((error as Error).name)) return null;
      throw new FileStoreUnavailableError(error);
    }
  }

  const get = (key: string) => {
    const command = new GetObjectCommand({ Bucket, Key: checkKey(key) });
    return attempt<GetObjectCommandOutput>(() => client.send(command));
  };

  return {
    async put(key, data) {
      const command = new PutObjectCommand({
        Bucket,
        Key: checkKey(key),
        Body: data,
        ContentLength: data.length,
      });
      // one PutObject: S3 shows an object only once all of it has arrived
      await attempt(() => client.send(command));
    },
    async putFile(key, localPath) {
      const { size } = await stat(localPath);
      const command = new PutObjectCommand({
        Bucket,
        Key: checkKey(key),
        Body: createReadStream(localPath),
        ContentLength: size,
      });
      await attempt(() => client.send(command));
    },
    async read(key) {
      const object = await get(key);
      if (!object?.Body) return null;
      const body = object.Body;
      const bytes = await attempt(() => body.transformToByteArray());
      return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async stream(key) {
      const object = await get(key);
      if (!object?.Body) return null;
      return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
    },
    async remove(key) {
      const command = new DeleteObjectCommand({ Bucket, Key: checkKey(key) });
      await attempt(() => client.send(command));
    },
    location: (key) => `s3://${Bucket}/${checkKey(key)}`,
  };
}
