import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it('refuses the folder it writes through as a key', async () => {
    await expect(files.stream('.partial/x')).rejects.toThrow('unsafe file key');
  });
});
