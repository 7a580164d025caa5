import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileStore } from '../../adapters/file-store';
import { createTestApp, type TestApp } from '../../test/app';
import { pdfLines } from '../../test/invoices';
import { linkEvent, paidSilently, sendWebhook } from '../../test/payments';
import { drainQueue, jobsOf } from '../../test/queue';
import { drawDocument, type DocumentDrawJob } from './draw';
import { invoices } from './schema';

let t: TestApp;
// the app's drawing and mail workers start at the first drawDocuments or outbox
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An order paid and settled by the gateway's webhook, its PDF not drawn yet. */
async function settledOrder() {
  const paid = await paidSilently(t);
  const res = await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_draw'));
  expect(res.json().message).toBe('applied');
  const [invoice] = await t.deps.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, paid.orderId));
  return { ...paid, invoice: invoice! };
}

const receiptMailsTo = async (email: string) =>
  (await t.outbox()).filter((mail) => mail.to === email && mail.subject.startsWith('Your invoice'));

const drawJobOf = async (invoiceId: string) =>
  (await jobsOf(t, 'document-draw')).find((job) => job.data.id === invoiceId)!;

describe('an invoice drawn after its settlement commits', () => {
  it('is numbered at settlement, its PDF drawn from what it said then, and mailed once however often drawn', async () => {
    // no worker runs yet: this is where a document stands between its commit and its drawing
    const mailJobsBefore = (await jobsOf(t, 'mail')).length;
    const { b, invoice } = await settledOrder();
    expect(invoice.invoiceNumber).toMatch(/^INV\/\d{2}-\d{2}\/\d{6}$/);
    expect(invoice.drawnAt).toBeNull();
    expect(invoice.content!.title).toBe('TAX INVOICE');
    expect(await t.deps.files.read(invoice.fileKey)).toBeNull();
    // the receipt waits for its PDF
    expect(await jobsOf(t, 'mail')).toHaveLength(mailJobsBefore);
    const job = await drawJobOf(invoice.id);
    expect(job.state).toBe('created');

    // drawn twice at once (a retry racing a slow first try) and once more: stored, mailed once
    const data = job.data as unknown as DocumentDrawJob;
    await Promise.all([drawDocument(t.deps, data), drawDocument(t.deps, data)]);
    await drawDocument(t.deps, data);
    const queued = (await jobsOf(t, 'mail')).filter(
      (mailJob) => mailJob.data.messageId === data.mail.messageId,
    );
    expect(queued).toHaveLength(1);
    const [mail, ...more] = await receiptMailsTo(b.customer.email);
    expect(more).toEqual([]);
    const [drawn] = await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(drawn!.drawnAt).toBeInstanceOf(Date);
    const pdf = (await t.deps.files.read(invoice.fileKey))!;
    expect(await pdfLines(pdf)).toContain(`Invoice No: ${invoice.invoiceNumber}`);
    expect(mail!.attachments.map((a) => a.content.equals(pdf))).toEqual([true]);

    // a document gone with its account's purge is owed nothing
    const gone = { ...data, id: '00000000-0000-4000-8000-000000000000' };
    await expect(drawDocument(t.deps, gone)).resolves.toBeUndefined();
    // one with nothing to draw from fails its job, named, for an operator to look at
    await t.deps.db
      .update(invoices)
      .set({ drawnAt: null, content: null })
      .where(eq(invoices.id, invoice.id));
    await expect(drawDocument(t.deps, data)).rejects.toThrow(
      `the invoice ${invoice.id} has no content to draw`,
    );
  });

  it('is tried again while the file store is away, and mailed once it is stored', async () => {
    await t.drawDocuments();
    // the store is away before the payment settles: the worker, woken by the commit, fails
    const files = t.deps.files;
    t.deps.files = {
      ...files,
      put: async () => {
        throw new Error('store unavailable');
      },
    } satisfies FileStore;
    let settled: Awaited<ReturnType<typeof settledOrder>> | undefined;
    try {
      settled = await settledOrder();
      const { b, invoice, orderId } = settled;
      t.deps.queue.wake('document-draw');
      const job = await vi.waitFor(
        async () => {
          const tried = await drawJobOf(invoice.id);
          expect(tried.state).toBe('retry');
          return tried;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(job.output?.message).toBe('store unavailable');
      const [row] = await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(row!.drawnAt).toBeNull();
      const [order] = await b.history();
      expect(order!._id).toBe(orderId);
      const early = await t.app.inject({ method: 'GET', url: order!.receiptUrl! });
      expect(early.statusCode).toBe(409);
    } finally {
      t.deps.files = files;
    }
    const { b, invoice } = settled!;
    await drainQueue(t, 'document-draw', { retriesNow: true });
    expect(await receiptMailsTo(b.customer.email)).toHaveLength(1);
    const [order] = await b.history();
    const pdf = await t.app.inject({ method: 'GET', url: order!.receiptUrl! });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.equals((await t.deps.files.read(invoice.fileKey))!)).toBe(true);
  });
});
