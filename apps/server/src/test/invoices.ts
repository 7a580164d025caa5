import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { TestApp } from './app';
import { orders } from '../modules/purchases/schema';
import { buyer, refundEvent, sendWebhook } from './payments';
import { creditNotes, invoices } from '../modules/invoices/schema';

const run = promisify(execFile);

/** Runs one of Poppler's tools (pdftotext, pdfinfo, pdffonts) on a PDF; answers what it prints. */
export async function poppler(tool: string, pdf: Buffer, ...args: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-'));
  const file = path.join(dir, 'document.pdf');
  try {
    await writeFile(file, pdf);
    const { stdout } = await run(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A self-signed certificate and its PKCS#12 file, made with the openssl command line: the key
 * and the certificate stay beside it as `<file>.key.pem` and `<file>.cert.pem`. `subject` is
 * the certificate's (`/O=…/CN=…`); `exportOptions` go to `openssl pkcs12 -export`.
 */
export async function makeP12(
  file: string,
  subject: string,
  password: string,
  ...exportOptions: string[]
) {
  const key = `${file}.key.pem`;
  const cert = `${file}.cert.pem`;
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '30',
    '-subj',
    subject,
  ]);
  await run('openssl', [
    'pkcs12',
    '-export',
    ...exportOptions,
    '-inkey',
    key,
    '-in',
    cert,
    '-out',
    file,
    '-passout',
    `pass:${password}`,
  ]);
}

/** The text of a PDF as laid out on the page, a line a line, spaces collapsed, blanks dropped. */
export const pdfLines = async (pdf: Buffer) =>
  (await poppler('pdftotext', pdf, '-layout'))
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

type Buyer = Awaited<ReturnType<typeof buyer>>;

/**
 * The buyer orders the plan again and pays through the sandbox: the order and its invoice,
 * with its PDF drawn.
 */
export async function payFor(t: TestApp, b: Buyer) {
  const orderId = await b.order();
  const { checkoutPath } = await b.pay(orderId);
  await b.checkout(checkoutPath, 'pay');
  await t.drawDocuments();
  const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
  const [invoice] = await t.deps.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  if (!invoice) throw new Error(`order ${orderId} has no invoice`);
  return { b, order: order!, invoice, paymentId: order!.gatewayPaymentId! };
}

/** A new customer who bought a plan and paid through the sandbox: the order and its invoice. */
export const paidOrder = async (t: TestApp, customer = {}) =>
  payFor(t, await buyer(t, {}, customer));

/**
 * The gateway's refund.processed: one refund, and all refunded of the payment so far; answered
 * once the PDF of any credit note it issued is drawn.
 */
export async function reportRefund(
  t: TestApp,
  paymentId: string,
  refund: { id: string; amountPaise: number; refundedSoFarPaise: number },
  eventId?: string,
) {
  const res = await sendWebhook(
    t,
    'refund.processed',
    refundEvent(paymentId, refund),
    eventId ? { eventId } : {},
  );
  await t.drawDocuments();
  return res;
}

/** The credit notes issued against an invoice. */
export const creditNotesOf = (t: TestApp, invoiceId: string) =>
  t.deps.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId));
