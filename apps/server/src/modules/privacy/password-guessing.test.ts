import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { RATE_LIMITS } from '../../lib/rate-limit';
import { post } from '../../test/privacy';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const LIMIT = RATE_LIMITS.code.max;
const newAddress = () => `new-${randomUUID().slice(0, 8)}@example.test`;

describe('the password asked again by the privacy steps', () => {
  it('is refused with 429 after 20 wrong entries through the e-mail change and closing together, even when right', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    // wrong passwords spread over both steps count against one limit
    for (let i = 0; i < LIMIT; i++) {
      const res =
        i % 2
          ? await post(t, privacyPaths.emailChangeCode, headers, {
              newEmail: newAddress(),
              password: `wrong-${i}`,
            })
          : await post(t, privacyPaths.closeAccount, headers, {
              password: `wrong-${i}`,
              code: '123456',
            });
      expect(res.statusCode, `try ${i + 1}`).toBe(400);
      expect(res.json().message).toBe(privacyMessages.wrongPassword);
    }
    const blocked = await post(t, privacyPaths.emailChangeCode, headers, {
      newEmail: newAddress(),
      password: customer.password,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes?/);
    expect(blocked.headers['retry-after']).toBeDefined();
    // the limit is the customer's own: another customer's password is still checked
    const other = await createCustomer(t);
    const theirs = await post(t, privacyPaths.emailChangeCode, await authHeaders(t, other.id), {
      newEmail: newAddress(),
      password: other.password,
    });
    expect(theirs.statusCode).toBe(200);

    // the window passes (a fresh sign-in, the old token has run out): the right password works
    t.clock.advance(RATE_LIMITS.code.windowMs + 1000);
    const again = await post(t, privacyPaths.emailChangeCode, await authHeaders(t, customer.id), {
      newEmail: newAddress(),
      password: customer.password,
    });
    expect(again.statusCode).toBe(200);
  });

  it('does not count a right password, however often it is given', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (let i = 0; i < LIMIT + 5; i++) {
      const res = await post(t, privacyPaths.closeAccount, headers, {
        password: customer.password,
        code: '123456',
      });
      // past the password: refused for the code, which has its own limit of tries
      expect(res.statusCode, `try ${i + 1}`).not.toBe(429);
      expect(res.json().message).not.toBe(privacyMessages.wrongPassword);
    }
  });
});
