import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../modules/plugins/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderFileStore, type FileStore } from './file-store';

let root: string;
let files: FileStore;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'portal-folder-store-'));
  files = createFolderFileStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the folder file store', () => {
  it('stores a file and gives it back whole and as a stream with its size', async () => {
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

  it('answers null for a missing file, and removing one is not an error', async () => {
    expect(await files.read('receipts/none.pdf')).toBeNull();
    expect(await files.stream('receipts/none.pdf')).toBeNull();
    await files.remove('receipts/none.pdf');
  });

  it('never shows a reader half a file while it is being written', async () => {
    const data = randomBytes(32 * 1024 * 1024);
    const seen = new Set<number>();
    let writing = true;
    const watching = (async () => {
      while (writing) {
        const stored = await files.stream('plugins/big/setup.bin');
        if (stored) {
          seen.add(stored.size);
          stored.body.destroy();
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await files.put('plugins/big/setup.bin', data);
    writing = false;
    await watching;
    expect([...seen].filter((size) => size !== data.length)).toEqual([]);
    expect((await files.stream('plugins/big/setup.bin'))?.size).toBe(data.length);
  });

  it('leaves nothing behind when a write fails', async () => {
    // a folder where the file should go: the final rename fails
    await mkdir(path.join(root, 'receipts/taken.pdf/inside'), { recursive: true });
    await expect(files.put('receipts/taken.pdf', Buffer.from('%PDF-'))).rejects.toThrow();
    expect(await readdir(path.join(root, '.partial'))).toEqual([]);
    expect(await readdir(path.join(root, 'receipts/taken.pdf'))).toEqual(['inside']);
  });

  it('refuses a key the portal would never make', async () => {
    await expect(files.put('../outside.txt', Buffer.from('x'))).rejects.toThrow('unsafe file key');
    await expect(files.read('/etc/passwd')).rejects.toThrow('unsafe file key');
    await expect(files.stream('.partial/x')).rejects.toThrow('unsafe file key');
  });
});
