import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where plugin installers and receipts are kept; a folder here, S3-compatible in a cluster. */
export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._/-]*$/i;

export function createFolderFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe file key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    read: (key) => readFile(resolve(key)),
    stream: (key) => createReadStream(resolve(key)),
    async size(key) {
      try {
        return (await stat(resolve(key))).size;
      } catch {
        return null;
      }
    },
    remove: (key) => rm(resolve(key), { force: true }),
  };
}
