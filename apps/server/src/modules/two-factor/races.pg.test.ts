import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorPaths } from '@portal/contract';
import type { Database } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { sessions } from '../auth/schema';
import {
  appCode,
  post,
  startSignIn,
  status,
  verifyCode,
  verifyWithRecovery,
  withAppOn,
} from './test-support';

// PostgreSQL only: each request runs on its own connection, so they really interleave and only
// the conditions of the statements that use a code keep it to one use.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AT_ONCE = 10;
const statuses = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode).sort();
const oneWinner = [200, ...Array(AT_ONCE - 1).fill(400)].sort();

async function signInsAtOnce(customer: Awaited<ReturnType<typeof createCustomer>>) {
  const challenges = [];
  for (let i = 0; i < AT_ONCE; i += 1) challenges.push(await startSignIn(t, customer));
  return challenges;
}

// the customer's one session from withAppOn, and those the sign-ins opened
const sessionCount = async (customerId: string) =>
  (await t.deps.db.select().from(sessions).where(eq(sessions.customerId, customerId))).length;

/**
 * `db`, except that its first `count` transactions wait until all of them have been asked for:
 * the requests' password checks (argon2) spread them out, so that each would otherwise read the
 * app as on only before the one ahead of it commits; held here, they all meet at the claim.
 */
function meetingAtTransaction(db: Database, count: number): Database {
  let arrived = 0;
  let all!: () => void;
  const together = new Promise<void>((resolve) => (all = resolve));
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Database['transaction']>) => {
        arrived += 1;
        if (arrived === count) all();
        if (arrived <= count) await together;
        return target.transaction(...args);
      };
    },
  });
}

describe('two sign-ins with one code at once', () => {
  it("lets one of ten sign-ins with the same app's code in", async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    const challenges = await signInsAtOnce(customer);
    const code = appCode(t, secret);
    const answers = await Promise.all(challenges.map((c) => verifyCode(t, c.tempToken, code)));
    expect(statuses(answers)).toEqual(oneWinner);
    expect(await sessionCount(customer.id)).toBe(2);
  });

  it('lets one of ten sign-ins with the same recovery code in, and uses it once', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes, headers } = await withAppOn(t, customer);
    const challenges = await signInsAtOnce(customer);
    const answers = await Promise.all(
      challenges.map((c) => verifyWithRecovery(t, c.tempToken, recoveryCodes[0]!)),
    );
    expect(statuses(answers)).toEqual(oneWinner);
    expect(await sessionCount(customer.id)).toBe(2);
    expect((await status(t, headers)).recoveryCodesLeft).toBe(9);
  });

  it('turns the app off once when ten requests with one code arrive together', async () => {
    const customer = await createCustomer(t);
    const { secret, headers } = await withAppOn(t, customer);
    const code = appCode(t, secret);
    const db = t.deps.db;
    t.deps.db = meetingAtTransaction(db, AT_ONCE);
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          post(t, twoFactorPaths.disable, headers, { password: customer.password, code }),
        ),
      );
    } finally {
      t.deps.db = db;
    }
    expect(statuses(answers)).toEqual(oneWinner);
    const notices = (await t.outbox()).filter((m) => m.to === customer.email);
    expect(notices).toHaveLength(2);
  });
});
