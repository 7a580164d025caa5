import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../modules/plugins/service';
import { startTestS3, type TestS3 } from '../test/s3';
import { createFolderFileStore, type FileStore } from './file-store';
import { createS3FileStore } from './s3-file-store';

// What the routes and the CLI rely on of a file store, held to the same answers in both: each
// store's own file tests cover what only it can do (atomic renames, a server that is down).
let s3: TestS3;
let folder: string;
beforeAll(async () => {
  s3 = await startTestS3();
  folder = await mkdtemp(path.join(tmpdir(), 'portal-folder-store-'));
});
afterAll(async () => {
  await s3.stop();
  await rm(folder, { recursive: true, force: true });
});

const stores: [string, () => FileStore][] = [
  ['the folder store', () => createFolderFileStore(folder)],
  ['the S3 store', () => createS3FileStore(s3.options)],
];

describe.each(stores)('%s', (_name, open) => {
  it('stores a file and gives it back whole and as a stream with its size', async () => {
    const files = open();
    const data = randomBytes(100_000);
    await files.put('plugins/a/setup.bin', data);
    // digests: comparing 100 kB byte by byte is slow in the test runner
    expect(sha256Hex((await files.read('plugins/a/setup.bin'))!)).toBe(sha256Hex(data));
    const stored = await files.stream('plugins/a/setup.bin');
    expect(stored?.size).toBe(data.length);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(sha256Hex(Buffer.concat(chunks))).toBe(sha256Hex(data));
  });

  it('stores a local file streamed, and gives it back whole', async () => {
    const files = open();
    const local = path.join(folder, 'local-upload.bin');
    const data = randomBytes(300_000);
    await writeFile(local, data);
    await files.putFile('data-exports/c/e.zip', local);
    expect(sha256Hex((await files.read('data-exports/c/e.zip'))!)).toBe(sha256Hex(data));
    expect((await files.stream('data-exports/c/e.zip'))?.size).toBe(data.length);
  });

  it('replaces a file put again under the same key, and removes it', async () => {
    const files = open();
    await files.put('receipts/b.pdf', Buffer.from('first'));
    await files.put('receipts/b.pdf', Buffer.from('second'));
    expect((await files.read('receipts/b.pdf'))?.toString()).toBe('second');

    await files.remove('receipts/b.pdf');
    expect(await files.read('receipts/b.pdf')).toBeNull();
    // removing what is not there is not an error
    await files.remove('receipts/b.pdf');
  });

  it('answers null for a key it does not hold', async () => {
    const files = open();
    expect(await files.read('plugins/none/setup.bin')).toBeNull();
    expect(await files.stream('plugins/none/setup.bin')).toBeNull();
  });

  it('refuses a key the portal would never make', async () => {
    const files = open();
    await expect(files.put('../outside.txt', Buffer.from('x'))).rejects.toThrow('unsafe file key');
    await expect(files.read('/etc/passwd')).rejects.toThrow('unsafe file key');
    await expect(files.stream('plugins/../../x')).rejects.toThrow('unsafe file key');
  });
});
