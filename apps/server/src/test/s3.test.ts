import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from './s3';

let s3: TestS3;
let client: S3Client;
beforeAll(async () => {
  s3 = await startTestS3();
  client = new S3Client({ ...s3.options, maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await s3.stop();
});

describe('the test S3 server', () => {
  it('takes writes and deletes of keys in one folder from two clients at once, as S3 does', async () => {
    const thrown: unknown[] = [];
    const collect = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', collect);
    try {
      // two instances' readiness probes: each writes a key of its own, then deletes it
      await Promise.all(
        ['a', 'b'].map(async (instance) => {
          for (let i = 0; i < 300; i++) {
            const key = { Bucket: s3.bucket, Key: `health/ready-${instance}-${i}` };
            await client.send(new PutObjectCommand({ ...key, Body: Buffer.from('ok') }));
            await client.send(new DeleteObjectCommand(key));
          }
        }),
      );
    } finally {
      process.off('uncaughtException', collect);
    }
    expect(thrown).toEqual([]);
    expect(await s3.keys()).toEqual([]);
  }, 60_000);
});
