import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { codeFrom, readOutbox } from '../../test/mail';
import { freshIp, login, loginBody, verify } from '../../test/auth';
import { mailTemplates } from '../../mail-templates';
import { startMailDelivery } from './delivery';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // a worker that would look for new mail only once a minute by itself
  await startMailDelivery(t.deps, mailTemplates, { pollingIntervalSeconds: 60 });
});
afterAll(() => t.close());

/** Waits, without hurrying the queue, for the outbox to hold `count` mails; answers the newest. */
async function mailNumber(count: number) {
  await expect
    .poll(async () => (await readOutbox(t.outboxDir)).length, { timeout: 10_000 })
    .toBe(count);
  return (await readOutbox(t.outboxDir)).at(-1)!;
}

describe('POST /api/auth/login', () => {
  it('has the code sent at once by the instance that took the sign-in, not at its worker’s next look', async () => {
    const customer = await createCustomer(t);
    // read straight from the folder: t.outbox() would itself hurry the queue along
    const before = (await readOutbox(t.outboxDir)).length;
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    expect((await mailNumber(before + 1)).subject).toBe('Your verification code');
  });
});

describe('POST /api/auth/verify-2fa', () => {
  it('has the new browser notice sent at once too', async () => {
    const customer = await createCustomer(t);
    let count = (await readOutbox(t.outboxDir)).length;
    // two sign-ins from browsers that keep no cookie: the second is from a new browser
    for (const _ of [1, 2]) {
      const ip = freshIp();
      const first = await login(t, loginBody(customer), ip);
      count += 1;
      const code = codeFrom(await mailNumber(count));
      expect((await verify(t, first.json().tempToken, code, ip)).statusCode).toBe(200);
    }
    expect((await mailNumber(count + 1)).subject).toBe('New sign-in to your portal account');
  });
});
