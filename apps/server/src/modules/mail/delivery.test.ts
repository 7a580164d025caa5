import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { readOutbox } from '../../test/mail';
import { jobsOf } from '../../test/queue';
import { mailTemplates } from '../../mail-templates';
import { deliverMail, enqueueMail, type MailJob } from './delivery';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const LINK = 'http://localhost:3000/reset-password?token=QmFua1Rva2VuVGhhdE11c3ROb3RMZWFr';

/** The jobs queued by `change`, which the test app's worker has not run (none reads the outbox). */
async function queuedBy(change: () => Promise<unknown>): Promise<MailJob[]> {
  const before = (await jobsOf(t, 'mail')).length;
  await change();
  return (await jobsOf(t, 'mail')).slice(before).map((job) => job.data as unknown as MailJob);
}

describe('enqueueMail', () => {
  it('keeps the code and the reset link out of the job table, sealed with the data key', async () => {
    const [code, reset] = await queuedBy(() =>
      t.deps.db.transaction(async (tx) => {
        await enqueueMail(tx, t.deps, {
          template: 'sign-in-code',
          to: 'a@example.test',
          data: { code: '918273' },
        });
        await enqueueMail(tx, t.deps, {
          template: 'password-reset-link',
          to: 'a@example.test',
          data: { link: LINK },
        });
      }),
    );
    const stored = JSON.stringify([code, reset]);
    expect(stored).not.toContain('918273');
    expect(stored).not.toContain('QmFua1Rva2Vu');
    expect(stored).not.toContain('a@example.test');
    expect(code!.messageId).toMatch(/^<[0-9a-f-]{36}@portal\.localhost>$/);
    expect(code!.messageId).not.toBe(reset!.messageId);
  });

  it('queues nothing when the change it belongs to rolls back', async () => {
    const jobs = await queuedBy(() =>
      t.deps.db
        .transaction(async (tx) => {
          await enqueueMail(tx, t.deps, {
            template: 'sign-in-code',
            to: 'b@example.test',
            data: { code: '111111' },
          });
          throw new Error('the change fails after the mail was queued');
        })
        .catch(() => undefined),
    );
    expect(jobs).toEqual([]);
  });
});

describe('deliverMail', () => {
  it('sends a job once, under the Message-ID fixed when it was queued, however often it runs', async () => {
    const [job] = await queuedBy(() =>
      enqueueMail(t.deps.db, t.deps, {
        template: 'sign-in-code',
        to: 'c@example.test',
        data: { code: '564738' },
      }),
    );
    const before = (await readOutbox(t.outboxDir)).length;
    expect(await deliverMail(t.deps, mailTemplates, job!)).toBe('sent');
    // the queue runs a job again after a try it could not mark done, or an operator's retry
    expect(await deliverMail(t.deps, mailTemplates, job!)).toBe('already');
    const mails = (await readOutbox(t.outboxDir)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.messageId).toBe(job!.messageId);
    expect(mails[0]!.to).toBe('c@example.test');
    expect(mails[0]!.text).toContain('Your verification code is 564738');
  });

  it('refuses a sealed mail moved under another Message-ID, and sends nothing', async () => {
    const [first, second] = await queuedBy(async () => {
      for (const to of ['d@example.test', 'e@example.test']) {
        await enqueueMail(t.deps.db, t.deps, {
          template: 'sign-in-code',
          to,
          data: { code: '123123' },
        });
      }
    });
    const before = (await readOutbox(t.outboxDir)).length;
    await expect(
      deliverMail(t.deps, mailTemplates, { messageId: first!.messageId, sealed: second!.sealed }),
    ).rejects.toThrow('the value was altered or encrypted with another key');
    expect(await readOutbox(t.outboxDir)).toHaveLength(before);
  });
});

describe('a mail that carries a stored PDF', () => {
  it('is not sent, and is tried again, while its PDF is not stored; once stored, it goes with the PDF attached', async () => {
    const orderId = '4fa65d2e-0000-4000-8000-0000000000aa';
    const [job] = await queuedBy(() =>
      enqueueMail(t.deps.db, t.deps, {
        template: 'receipt',
        to: 'f@example.test',
        data: {
          orderId,
          invoiceNumber: 'INV/2026-27/000099',
          planName: 'Basic',
          totalPaise: 118_000,
          paidAt: '2027-01-05T04:44:00.000Z',
          companyName: 'Acme Traders',
        },
      }),
    );
    const before = (await readOutbox(t.outboxDir)).length;
    await expect(deliverMail(t.deps, mailTemplates, job!)).rejects.toThrow(
      `the PDF receipts/${orderId}.pdf is not stored`,
    );
    expect(await readOutbox(t.outboxDir)).toHaveLength(before);

    const pdf = Buffer.from('%PDF-1.7\n%%EOF\n');
    await t.deps.files.put(`receipts/${orderId}.pdf`, pdf);
    expect(await deliverMail(t.deps, mailTemplates, job!)).toBe('sent');
    const [mail] = (await readOutbox(t.outboxDir)).slice(before);
    expect(mail!.subject).toBe('Your invoice INV/2026-27/000099');
    expect(mail!.attachments).toEqual([
      expect.objectContaining({ filename: 'Invoice-INV-2026-27-000099.pdf' }),
    ]);
  });
});
