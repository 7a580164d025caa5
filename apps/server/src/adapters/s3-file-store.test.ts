import { createServer, type Socket } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startTestS3, type TestS3 } from '../test/s3';
import { createFileStore } from './configured-file-store';
import { FileStoreUnavailableError } from './file-store';
import { createS3FileStore } from './s3-file-store';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.stop());

describe('the S3 file store', () => {
  it('refuses a key the portal would never make, without asking the server', async () => {
    const files = createS3FileStore({ ...s3.options, endpoint: 'http://127.0.0.1:9' });
    await expect(files.put('../outside', Buffer.from('x'))).rejects.toThrow('unsafe file key');
    await expect(files.stream('/etc/passwd')).rejects.toThrow('unsafe file key');
  });

  it('is unavailable while the server is down, and an upload then leaves nothing behind', async () => {
    const files = createS3FileStore(s3.options);
    await files.put('plugins/c/kept.bin', Buffer.from('kept'));
    await s3.down();
    try {
      await expect(files.put('plugins/c/new.bin', Buffer.from('new'))).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
      await expect(files.stream('plugins/c/kept.bin')).rejects.toThrow(
        'Files are briefly unavailable. Please try again in a moment.',
      );
      await expect(files.read('plugins/c/kept.bin')).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
    } finally {
      await s3.up();
    }
    expect(await files.read('plugins/c/new.bin')).toBeNull();
    expect((await files.read('plugins/c/kept.bin'))?.toString()).toBe('kept');
  });

  it('gives up on a server that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const files = createS3FileStore({
        ...s3.options,
        endpoint: `http://127.0.0.1:${port}`,
        idleTimeoutMs: 200,
      });
      const started = Date.now();
      await expect(files.stream('plugins/d/setup.bin')).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
      await expect(files.put('plugins/d/setup.bin', Buffer.from('x'))).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
      // each of the SDK's three attempts waits 200 ms, plus its back-off between them
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('createFileStore', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/portal-file-store-choice' };

  it('uses the bucket S3_BUCKET names, at S3_ENDPOINT', async () => {
    const files = createFileStore(loadConfig({ ...base, ...s3.env }));
    await files.put('receipts/chosen.pdf', Buffer.from('in the bucket'));
    const direct = createS3FileStore(s3.options);
    expect((await direct.read('receipts/chosen.pdf'))?.toString()).toBe('in the bucket');
  });

  it('keeps files under DATA_DIR/files when S3_BUCKET is unset', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-files-'));
    try {
      const files = createFileStore(loadConfig({ ...base, DATA_DIR: dataDir }));
      await files.put('receipts/local.pdf', Buffer.from('on disk'));
      expect(await readFile(path.join(dataDir, 'files/receipts/local.pdf'), 'utf8')).toBe(
        'on disk',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses an access key without its secret', () => {
    const { S3_SECRET_ACCESS_KEY: _secret, ...env } = s3.env;
    expect(() => createFileStore(loadConfig({ ...base, ...env }))).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all',
    );
  });
});
