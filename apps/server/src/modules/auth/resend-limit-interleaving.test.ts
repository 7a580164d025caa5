import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEND_INTERVAL_MS, authMessages } from '@portal/contract';
import type { Database } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { CODE_MAIL_SUBJECT } from './mails';
import { loginChallenges } from './schema';
import { MAX_RESENDS, resendCode } from './service';
import { freshIp, login, loginBody } from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type UpdateBuilder = ReturnType<Database['update']>;

/**
 * `db`, except that its first write (an update statement, once built, or a transaction), which
 * its caller starts after reading what it decides on, waits for `release()` before it runs:
 * another request's statements land exactly there.
 */
function holdingFirstWrite(db: Database) {
  let reached!: () => void;
  let release!: () => void;
  const built = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'transaction') {
        return async (...args: Parameters<Database['transaction']>) => {
          reached();
          await released;
          return target.transaction(...args);
        };
      }
      if (property !== 'update') return value;
      return (...args: Parameters<Database['update']>) =>
        new Proxy(target.update(...args), {
          get(builder, key, builderReceiver) {
            const member: unknown = Reflect.get(builder, key, builderReceiver);
            if (key !== 'set') return member;
            return (...values: Parameters<UpdateBuilder['set']>) => {
              const statement = builder.set(...values);
              const run = statement.then.bind(statement);
              Object.assign(statement, {
                then: (...handlers: Parameters<typeof run>) => {
                  reached();
                  return released.then(() => run(...handlers));
                },
              });
              return statement;
            };
          },
        });
    },
  });
  return { db: held, built, release };
}

describe('resending a code', () => {
  it('mails no sixth code when a resend held for a minute lands after the fifth', async () => {
    const customer = await createCustomer(t);
    const started = await login(t, loginBody(customer), freshIp());
    const tempToken = started.json().tempToken as string;
    // four codes resent already, the last a minute ago: one more is allowed
    await t.deps.db
      .update(loginChallenges)
      .set({
        resendCount: MAX_RESENDS - 1,
        codeSentAt: new Date(t.clock.now().getTime() - RESEND_INTERVAL_MS),
      })
      .where(eq(loginChallenges.customerId, customer.id));
    const codeMails = async () =>
      (await t.outbox()).filter((m) => m.to === customer.email && m.subject === CODE_MAIL_SUBJECT);
    const before = (await codeMails()).length;

    // the fifth resend reads the challenge and stalls before it writes
    const fifth = holdingFirstWrite(t.deps.db);
    const fifthDone = resendCode({ ...t.deps, db: fifth.db }, tempToken);
    await fifth.built;
    // a minute later another resend reads the same four and stalls too
    t.clock.advance(RESEND_INTERVAL_MS);
    const sixth = holdingFirstWrite(t.deps.db);
    const sixthDone = resendCode({ ...t.deps, db: sixth.db }, tempToken);
    await sixth.built;

    fifth.release();
    await fifthDone;
    sixth.release();
    await expect(sixthDone).rejects.toMatchObject({ message: authMessages.tooManyResends });

    expect(await codeMails()).toHaveLength(before + 1);
    const [challenge] = await t.deps.db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.customerId, customer.id));
    expect(challenge!.resendCount).toBe(MAX_RESENDS);
  });
});
