import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { meetingAtTransaction } from '../../test/database';
import { sessions } from '../auth/schema';
import {
  appCode,
  post,
  startSignIn,
  status,
  verifyCode,
  verifyWithRecovery,
  withAppOn,
} from '../../test/two-factor';

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
    // the password checks (argon2) would spread them out, each reading the app as on only
    // before the one ahead of it commits
    const answers = await meetingAtTransaction(t.deps, AT_ONCE, () =>
      Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          post(t, twoFactorPaths.disable, headers, { password: customer.password, code }),
        ),
      ),
    );
    expect(statuses(answers)).toEqual(oneWinner);
    const notices = (await t.outbox()).filter((m) => m.to === customer.email);
    expect(notices).toHaveLength(2);
  });
});
