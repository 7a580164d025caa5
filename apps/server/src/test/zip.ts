import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Every entry of a ZIP, read back by a real unzip library. */
export function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zipFile) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zipFile.on('entry', (entry: yauzl.Entry) => {
        zipFile.openReadStream(entry, async (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          for await (const chunk of stream as Readable) chunks.push(chunk as Buffer);
          entries.set(entry.fileName, Buffer.concat(chunks));
          zipFile.readEntry();
        });
      });
      zipFile.on('end', () => resolve(entries));
      zipFile.on('error', reject);
      zipFile.readEntry();
    });
  });
}
