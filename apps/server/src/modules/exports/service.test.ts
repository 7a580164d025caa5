import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { createFolderFileStore, type FileStore } from '../../adapters/file-store';
import type { TaxDocument } from '../invoices/reads';
import { unzip } from '../../test/zip';
import { addDocumentPdfs } from './service';

let dir: string;
let files: FileStore;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'exports-'));
  files = createFolderFileStore(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const document = (overrides: Partial<TaxDocument>): TaxDocument => ({
  kind: 'invoice',
  id: '00000000-0000-4000-8000-000000000001',
  number: 'INV/26-27/000001',
  issuedAt: new Date('2026-09-01T06:10:00Z'),
  orderId: '00000000-0000-4000-8000-0000000000aa',
  invoiceNumber: 'INV/26-27/000001',
  invoiceDate: new Date('2026-09-01T06:10:00Z'),
  customerGstin: '27AAPFU0939F1ZV',
  placeOfSupply: '27',
  fileKey: 'invoices/inv-26-27-000001.pdf',
  drawn: true,
  taxablePaise: 25_424,
  cgstPaise: 2_288,
  sgstPaise: 2_288,
  igstPaise: 0,
  untaxedPaise: 0,
  totalPaise: 30_000,
  ...overrides,
});

/** A PDF's first bytes and a long run that deflate would shrink to almost nothing. */
const pdfBytes = (text: string) => Buffer.from(`%PDF-1.7\n${text}\n${'0 0 0 RG\n'.repeat(200)}`);

/** The archive of the documents, written by addDocumentPdfs, as bytes. */
async function archiveOf(documents: TaxDocument[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  addDocumentPdfs(zip, files, documents);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Each entry's name, how it is stored and its time, as an unzip tool lists them. */
function listing(archive: Buffer) {
  return new Promise<object[]>((resolve, reject) => {
    const entries: object[] = [];
    // without lazyEntries, yauzl reads the whole central directory on its own
    yauzl.fromBuffer(archive, (error, zipFile) => {
      if (error) return reject(error);
      zipFile
        .on('entry', (entry: yauzl.Entry) =>
          entries.push({
            name: entry.fileName,
            // 0 is "stored": the bytes as they are, no deflate
            method: entry.compressionMethod,
            compressedSize: entry.compressedSize,
            size: entry.uncompressedSize,
            modified: entry.getLastModDate(),
          }),
        )
        .on('end', () => resolve(entries))
        .on('error', reject);
    });
  });
}

describe('the ZIP of invoice PDFs', () => {
  it('stores each PDF as it is, dated when its document was issued', async () => {
    const invoicePdf = pdfBytes('invoice');
    const notePdf = pdfBytes('credit note');
    await files.put('invoices/inv-26-27-000001.pdf', invoicePdf);
    await files.put('credit-notes/cn-26-27-000001.pdf', notePdf);
    const note = document({
      kind: 'credit-note',
      number: 'CN/26-27/000001',
      issuedAt: new Date('2026-09-03T11:42:08Z'),
      fileKey: 'credit-notes/cn-26-27-000001.pdf',
    });

    const archive = await archiveOf([document({}), note]);
    expect(await listing(archive)).toEqual([
      {
        name: 'invoices/INV-26-27-000001.pdf',
        method: 0,
        compressedSize: invoicePdf.length,
        size: invoicePdf.length,
        modified: new Date('2026-09-01T06:10:00Z'),
      },
      {
        name: 'credit-notes/CN-26-27-000001.pdf',
        method: 0,
        compressedSize: notePdf.length,
        size: notePdf.length,
        modified: new Date('2026-09-03T11:42:08Z'),
      },
    ]);
    const entries = await unzip(archive);
    expect(entries.get('invoices/INV-26-27-000001.pdf')).toEqual(invoicePdf);
    expect(entries.get('credit-notes/CN-26-27-000001.pdf')).toEqual(notePdf);
  });

  it('fails the archive with an error naming the document whose PDF is missing from the store', async () => {
    await files.put('invoices/inv-26-27-000001.pdf', pdfBytes('invoice'));
    const zip = new yazl.ZipFile();
    addDocumentPdfs(zip, files, [
      document({}),
      document({ number: 'INV/26-27/000002', fileKey: 'invoices/never-stored.pdf' }),
    ]);
    zip.end();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await new Promise<unknown>((resolve) => {
      zip.on('error', resolve);
      zip.outputStream.on('end', () => resolve('the archive ended as if whole'));
      zip.outputStream.resume();
      timer = setTimeout(() => resolve('no error within 5 s'), 5_000);
    });
    clearTimeout(timer);
    expect(outcome).toEqual(new Error('the PDF of INV/26-27/000002 is missing from the store'));
  });
});
