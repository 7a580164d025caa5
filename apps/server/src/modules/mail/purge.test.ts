import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { readOutbox } from '../../test/mail';
import { jobsOf } from '../../test/queue';
import { mailTemplates } from '../../mail-templates';
import { deliverMail, enqueueMail, type MailJob } from './delivery';
import { DELIVERY_MARK_DAYS, purgeDeliveryMarks } from './purge';
import { mailDeliveries } from './schema';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Queues a sign-in code mail to `to` and answers its job, which no worker of the test app runs. */
async function queuedMail(to: string): Promise<MailJob> {
  const before = (await jobsOf(t, 'mail')).length;
  await enqueueMail(t.deps.db, t.deps, { template: 'sign-in-code', to, data: { code: '246810' } });
  return (await jobsOf(t, 'mail')).slice(before)[0]!.data as unknown as MailJob;
}

const marks = async () =>
  (await t.deps.db.select().from(mailDeliveries)).map((row) => row.messageId).sort();

describe('purgeDeliveryMarks', () => {
  it(`keeps a delivered mail's mark ${DELIVERY_MARK_DAYS} days, so that a job run again sends nothing`, async () => {
    const old = await queuedMail('old@example.test');
    expect(await deliverMail(t.deps, mailTemplates, old)).toBe('sent');
    t.clock.advance(2 * DAY_MS);
    const recent = await queuedMail('recent@example.test');
    expect(await deliverMail(t.deps, mailTemplates, recent)).toBe('sent');

    // the first mail's mark is one day short of its end: nothing goes
    t.clock.advance((DELIVERY_MARK_DAYS - 3) * DAY_MS);
    expect(await purgeDeliveryMarks(t.deps)).toBe(0);
    const before = (await readOutbox(t.outboxDir)).length;
    expect(await deliverMail(t.deps, mailTemplates, old)).toBe('already');
    expect(await readOutbox(t.outboxDir)).toHaveLength(before);

    // two days on, the first mail's mark is past its end, the second's is not
    t.clock.advance(2 * DAY_MS);
    expect(await purgeDeliveryMarks(t.deps)).toBe(1);
    expect(await marks()).toEqual([recent.messageId]);
    expect(await purgeDeliveryMarks(t.deps)).toBe(0);
    expect(await deliverMail(t.deps, mailTemplates, recent)).toBe('already');
  });
});
