import { execFile, spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import { loadConfig } from '../../config';
import { createTestApp } from '../../test/app';
import { invoiceAmounts } from './amounts';
import { invoiceContent, type InvoiceData } from './content';
import type { DocumentRegistration } from './document-pdf';
import { issuedDocumentPdf } from './signing';
import { makeP12, paidOrder, pdfLines, poppler, reportRefund } from '../../test/invoices';
import { creditNotes } from './schema';
import { eq } from 'drizzle-orm';

const run = promisify(execFile);

const SIGNER = 'Ledgerline Software Services Pvt Ltd';
const PASSWORD = 'p12-pass-Zq81';

let dir: string;
let p12File: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'signing-'));
  p12File = path.join(dir, 'invoices.p12');
  await makeP12(p12File, `/O=Ledgerline/CN=${SIGNER}`, PASSWORD);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const signing = () => ({
  INVOICE_SIGNING_P12_FILE: p12File,
  INVOICE_SIGNING_P12_PASSWORD: PASSWORD,
});

const order = orderAmount(4_999_00);
const invoice: InvoiceData = {
  invoiceNumber: 'INV/26-27/000042',
  invoiceDate: new Date('2026-06-01T10:00:00Z'),
  orderId: '0b6f7a1e-0000-4000-8000-000000000001',
  paymentId: 'pay_ABC123',
  supplier: {
    name: SIGNER,
    address: '4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103',
    gstin: '29AAGCL1234M1Z5',
  },
  recipient: {
    companyName: 'Acme Traders Pvt Ltd',
    gstin: '27AAPFU0939F1ZV',
    address: '12 MG Road, Pune, Maharashtra 411001',
    email: 'demo@acme.example',
    placeOfSupply: '27',
  },
  sacCode: '997331',
  plan: { name: 'Professional', type: 'Single', durationDays: 365, companies: 1 },
  period: { start: new Date('2026-06-01T10:00:00Z'), end: new Date('2027-06-01T10:00:00Z') },
  basePaise: order.basePaise,
  handlingPaise: order.handlingPaise,
  amounts: invoiceAmounts(order, false),
};

const registration: DocumentRegistration = {
  irn: '1323ce153b411859b7dcdeefcf0d11272f71b59837d8911a4e0134be3954a480',
  ackNo: '112610012345678',
  ackDate: new Date('2026-06-01T18:45:00Z'),
  signedQrCode: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJOSUMifQ.c2lnbmF0dXJl',
};
// the lines it adds, as pdftotext reads them
const registered = [
  'e-Invoice',
  `IRN: ${registration.irn}`,
  'Ack No: 112610012345678',
  'Ack Date: 02/06/2026',
];

/** Whether the PDF's structure holds the e-invoice's QR code: the figure that names it. */
const holdsQrCode = (pdf: Buffer) =>
  pdf
    .toString('latin1')
    .includes('/S /Figure\n/Alt (QR code of the e-invoice, signed by the IRP)\n');

/** `bytes` in a file of a folder of its own, for a command-line tool to read. */
async function inFile(name: string, bytes: Buffer) {
  const file = path.join(await mkdtemp(path.join(dir, 'tool-')), name);
  await writeFile(file, bytes);
  return file;
}

/** What Poppler's pdfsig says of a PDF's signatures (it exits non-zero on a bad one). */
async function pdfsig(pdf: Buffer) {
  const file = await inFile('document.pdf', pdf);
  try {
    return (await run('pdfsig', [file])).stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

/**
 * The text entries of a PDF's signature dictionary (`/Reason (…)`), as a viewer's signature
 * panel reads them.
 */
function signatureFields(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const start = text.indexOf('/Type /Sig');
  expect(start).toBeGreaterThan(0);
  const dictionary = text.slice(start, text.indexOf('endobj', start));
  return Object.fromEntries(
    [...dictionary.matchAll(/^\/(\w+) \((.*)\)$/gm)].map(([, name, value]) => [name, value]),
  );
}

describe('a signed invoice PDF', () => {
  it('carries a valid signature over the whole file, by the certificate’s CN, and says so on the page', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    const report = await pdfsig(pdf);
    expect(report).toMatch(
      /Signer Certificate Common Name: Ledgerline Software Services Pvt Ltd$/m,
    );
    expect(report).toMatch(/Signature Validation: Signature is Valid\.$/m);
    expect(report).toMatch(/Total document signed$/m);
    expect(await pdfLines(pdf)).toContain(
      'Digitally signed by Ledgerline Software Services Pvt Ltd on 01/06/2026',
    );
  });

  it('signs with SHA-256 its content type, signing time and digest, as adbe.pkcs7.detached expects', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    // the signature's PKCS#7, without the zeros that fill the rest of its placeholder: a DER
    // SEQUENCE whose length takes the n bytes after 0x80 + n
    const [, hex] = /\/Contents <([0-9a-f]+)>/i.exec(pdf.toString('latin1'))!;
    const der = Buffer.from(hex!, 'hex');
    const n = der[1]! - 0x80;
    const file = await inFile('signature.der', der.subarray(0, 2 + n + der.readUIntBE(2, n)));
    const { stdout } = await run('openssl', [
      'cms',
      '-cmsout',
      '-print',
      '-inform',
      'DER',
      '-in',
      file,
    ]);
    const attributes = stdout.slice(
      stdout.indexOf('signedAttrs:'),
      stdout.indexOf('signatureAlgorithm:'),
    );
    expect([...attributes.matchAll(/object: (\w+) /g)].map(([, name]) => name)).toEqual([
      'contentType',
      'signingTime',
      'messageDigest',
    ]);
    expect(attributes).toMatch(/UTCTIME:Jun {2}1 10:00:00 2026 GMT/);
    expect(stdout).toMatch(/digestAlgorithm:\s+algorithm: sha256/);
  });

  it('gives the supplier as the reason, India as the location and no contact in its signature', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    expect(signatureFields(pdf)).toEqual({
      Reason: 'Issued by the supplier',
      M: 'D:20260601100000Z',
      ContactInfo: '',
      Name: SIGNER,
      Location: 'India',
    });
  });

  it('stays tagged with every font embedded once signed', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    expect(await poppler('pdfinfo', pdf)).toMatch(/^Tagged:\s+yes$/m);
    const fonts = (await poppler('pdffonts', pdf)).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts)
      expect(font.split(/\s+/).slice(-5, -2)).toEqual(['yes', 'yes', 'yes']);
  });

  it('is reported invalid once a byte of it changes', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    const text = pdf.toString('latin1');
    const at = text.indexOf('/Lang (en-IN)');
    expect(at).toBeGreaterThan(0);
    const changed = Buffer.from(pdf);
    changed.write('US', at + '/Lang (en-'.length, 'latin1');
    const report = await pdfsig(changed);
    // the signed ranges still cover the file, but their digest no longer matches the signature
    expect(report).toMatch(/Signature Validation: Digest Mismatch\.$/m);
    expect(report).not.toMatch(/Signature is Valid/);
  });

  it('signs, and says so, when it prints its e-invoice registration and QR code', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig(signing()),
      invoiceContent(invoice),
      invoice.invoiceDate,
      registration,
    );
    const report = await pdfsig(pdf);
    expect(report).toMatch(/Signature Validation: Signature is Valid\.$/m);
    expect(report).toMatch(/Total document signed$/m);
    const lines = await pdfLines(pdf);
    expect(lines).toEqual(expect.arrayContaining(registered));
    expect(lines).toContain(
      'Digitally signed by Ledgerline Software Services Pvt Ltd on 01/06/2026',
    );
    expect(holdsQrCode(pdf)).toBe(true);
  });

  it('prints the registration on a document that goes unsigned too', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig({}),
      invoiceContent(invoice),
      invoice.invoiceDate,
      registration,
    );
    expect(await pdfsig(pdf)).toMatch(/does not contain any signatures/);
    expect(await pdfLines(pdf)).toEqual(expect.arrayContaining(registered));
    expect(holdsQrCode(pdf)).toBe(true);
  });

  it('claims no signature when no certificate is configured', async () => {
    const pdf = await issuedDocumentPdf(
      loadConfig({}),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    expect(await pdfsig(pdf)).toMatch(/does not contain any signatures/);
    expect((await pdfLines(pdf)).join('\n')).not.toMatch(/signed|signature/i);
  });
});

describe('issuing with a signing certificate', () => {
  it('signs the invoice of a paid order and the credit note of its refund', async () => {
    const t = await createTestApp({ env: signing() });
    try {
      t.clock.set(new Date('2026-09-01T06:00:00Z'));
      const { invoice: row, paymentId } = await paidOrder(t);
      await reportRefund(t, paymentId, {
        id: 'rfnd_S',
        amountPaise: 100_00,
        refundedSoFarPaise: 100_00,
      });
      const [note] = await t.deps.db
        .select()
        .from(creditNotes)
        .where(eq(creditNotes.invoiceId, row.id));
      for (const key of [row.fileKey, note!.fileKey]) {
        const pdf = (await t.deps.files.read(key))!;
        expect(await pdfsig(pdf)).toMatch(/Signature Validation: Signature is Valid\.$/m);
        expect(await pdfLines(pdf)).toContain(`Digitally signed by ${SIGNER} on 01/09/2026`);
      }
    } finally {
      await t.close();
    }
  });
});

describe('the certificate of a running server', () => {
  it('signs with the certificate it first opened, even once its file is replaced or removed', async () => {
    // loadConfig checked the file at start: a file changed later changes nothing until the
    // restart, which checks it again
    const file = path.join(dir, 'rotated.p12');
    await copyFile(p12File, file);
    const config = loadConfig({ ...signing(), INVOICE_SIGNING_P12_FILE: file });
    const issue = () => issuedDocumentPdf(config, invoiceContent(invoice), invoice.invoiceDate);
    const signedBySigner = async () => {
      const report = await pdfsig(await issue());
      expect(report).toMatch(/Signature Validation: Signature is Valid\.$/m);
      expect(report).toMatch(
        /Signer Certificate Common Name: Ledgerline Software Services Pvt Ltd$/m,
      );
    };
    await signedBySigner();

    const other = path.join(dir, 'other.p12');
    await makeP12(other, '/O=Other/CN=Someone Else', PASSWORD);
    await copyFile(other, file);
    await signedBySigner();
    await rm(file);
    await signedBySigner();
  });

  it('signs with a .p12 exported without a password, its password set empty', async () => {
    const file = path.join(dir, 'no-password.p12');
    await makeP12(file, '/O=Ledgerline/CN=Unprotected Signer', '');
    const pdf = await issuedDocumentPdf(
      loadConfig({ INVOICE_SIGNING_P12_FILE: file, INVOICE_SIGNING_P12_PASSWORD: '' }),
      invoiceContent(invoice),
      invoice.invoiceDate,
    );
    const report = await pdfsig(pdf);
    expect(report).toMatch(/Signature Validation: Signature is Valid\.$/m);
    expect(report).toMatch(/Signer Certificate Common Name: Unprotected Signer$/m);
  });
});

describe('the signing settings', () => {
  it('refuses a certificate file that cannot be read', () => {
    expect(() =>
      loadConfig({
        INVOICE_SIGNING_P12_FILE: path.join(dir, 'none.p12'),
        INVOICE_SIGNING_P12_PASSWORD: PASSWORD,
      }),
    ).toThrow(
      /^Invalid configuration: INVOICE_SIGNING_P12_FILE .*none\.p12 cannot be read \(ENOENT\)$/,
    );
  });

  it('refuses a wrong password without saying it', () => {
    const wrong = 'not-the-password-77';
    const load = () => loadConfig({ ...signing(), INVOICE_SIGNING_P12_PASSWORD: wrong });
    expect(load).toThrow(
      /^Invalid configuration: INVOICE_SIGNING_P12_PASSWORD does not open INVOICE_SIGNING_P12_FILE /,
    );
    expect(load).not.toThrow(new RegExp(wrong));
  });

  it('refuses a file that is not PKCS#12, and one setting without the other', async () => {
    const text = path.join(dir, 'not.p12');
    await writeFile(text, 'just some text');
    expect(() => loadConfig({ ...signing(), INVOICE_SIGNING_P12_FILE: text })).toThrow(
      /^Invalid configuration: INVOICE_SIGNING_P12_FILE .*not\.p12 is not a PKCS#12 \(\.p12\) file$/,
    );
    expect(() => loadConfig({ INVOICE_SIGNING_P12_FILE: p12File })).toThrow(
      'Invalid configuration: INVOICE_SIGNING_P12_PASSWORD is required with INVOICE_SIGNING_P12_FILE',
    );
    expect(() => loadConfig({ INVOICE_SIGNING_P12_PASSWORD: PASSWORD })).toThrow(
      'Invalid configuration: INVOICE_SIGNING_P12_PASSWORD is set without INVOICE_SIGNING_P12_FILE',
    );
  });

  it('refuses a file whose private key is not encrypted, which the signer cannot read', async () => {
    const plainKey = path.join(dir, 'plain-key.p12');
    await run('openssl', [
      'pkcs12',
      '-export',
      '-keypbe',
      'NONE',
      '-inkey',
      `${p12File}.key.pem`,
      '-in',
      `${p12File}.cert.pem`,
      '-out',
      plainKey,
      '-passout',
      `pass:${PASSWORD}`,
    ]);
    expect(() => loadConfig({ ...signing(), INVOICE_SIGNING_P12_FILE: plainKey })).toThrow(
      /^Invalid configuration: INVOICE_SIGNING_P12_FILE .*plain-key\.p12 must hold an encrypted private key and a certificate whose subject has a common name \(CN\)$/,
    );
  });

  it('stops the start on a wrong password with one line and exit code 1, the password unsaid', () => {
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const wrong = 'not-the-password-77';
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { INVOICE_SIGNING_P12_FILE: p12File, INVOICE_SIGNING_P12_PASSWORD: wrong },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `Invalid configuration: INVOICE_SIGNING_P12_PASSWORD does not open INVOICE_SIGNING_P12_FILE ${p12File}`,
    ]);
    expect(result.stderr).not.toContain(wrong);
  });
});
