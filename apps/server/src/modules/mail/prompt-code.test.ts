import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { readOutbox } from '../../test/mail';
import { freshIp, login, loginBody } from '../auth/test-support';
import { startMailDelivery } from './delivery';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // a worker that would look for new mail only once a minute by itself
  await startMailDelivery(t.deps, { pollingIntervalSeconds: 60 });
});
afterAll(() => t.close());

describe('POST /api/auth/login', () => {
  it('has the code sent at once by the instance that took the sign-in, not at its worker’s next look', async () => {
    const customer = await createCustomer(t);
    // read straight from the folder: t.outbox() would itself hurry the queue along
    const before = (await readOutbox(t.outboxDir)).length;
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    await expect
      .poll(async () => (await readOutbox(t.outboxDir)).length, { timeout: 10_000 })
      .toBe(before + 1);
    expect((await readOutbox(t.outboxDir)).at(-1)!.subject).toBe('Your verification code');
  });
});
