import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../lib/errors';

/** A stored file opened for reading: its bytes as a stream, and how many there are. */
export interface StoredFile {
  body: Readable;
  size: number;
}

/** Where plugin installers and receipts are kept; a folder here, S3-compatible in a cluster. */
export interface FileStore {
  /** Stores the whole file or nothing: no reader ever sees it half-written. */
  put(key: string, data: Buffer): Promise<void>;
  /** Stores a local file by streaming it, whole or not at all: for files too big to hold. */
  putFile(key: string, localPath: string): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  read(key: string): Promise<Buffer | null>;
  /** The file opened for streaming, or null when there is no such file. */
  stream(key: string): Promise<StoredFile | null>;
  /** Removing a file that is not there is not an error. */
  remove(key: string): Promise<void>;
  /** Where a key's bytes are kept, for an operator to read: a path or an s3:// address. */
  location(key: string): string;
}

export const FILE_STORE_UNAVAILABLE_MESSAGE =
  'Files are briefly unavailable. Please try again in a moment.';

/** The store could not be reached or did not answer in time: a 503 the client may retry. */
export class FileStoreUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('SERVICE_UNAVAILABLE', FILE_STORE_UNAVAILABLE_MESSAGE);
    this.cause = cause;
  }
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._/-]*$/i;

/** Keys are made by the portal, never by a client; anything else is a bug, refused loudly. */
export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe file key: ${key}`);
  return key;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under one folder. */
export function createFolderFileStore(root: string): FileStore {
  const resolve = (key: string) => path.join(root, checkKey(key));
  // a key never starts with a dot, so nothing written here can be mistaken for a stored file
  const partialDir = path.join(root, '.partial');
  async function writeWhole(key: string, write: (partial: string) => Promise<void>) {
    const file = resolve(key);
    const partial = path.join(partialDir, randomUUID());
    await mkdir(partialDir, { recursive: true });
    try {
      await write(partial);
      await mkdir(path.dirname(file), { recursive: true });
      // a rename within one file system is atomic: readers see the old file or the whole new one
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
  return {
    put: (key, data) => writeWhole(key, (partial) => writeFile(partial, data)),
    putFile: (key, localPath) =>
      writeWhole(key, (partial) =>
        pipeline(createReadStream(localPath), createWriteStream(partial)),
      ),
    async read(key) {
      try {
        return await readFile(resolve(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stream(key) {
      let handle;
      try {
        handle = await open(resolve(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // size and bytes from one open file, so a replacement in between cannot mix them
      const { size } = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      return { body: createReadStream('', { fd: handle }), size };
    },
    remove: (key) => rm(resolve(key), { force: true }),
    location: resolve,
  };
}
