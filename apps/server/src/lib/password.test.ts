import { createHash } from 'node:crypto';
import * as argon2 from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authMessages } from '@portal/contract';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { loginChallenges } from '../modules/auth/schema';
import { freshIp, login, loginBody } from '../test/auth';
import { customers } from '../modules/users/schema';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';

// counts the argon2 verifications, without changing them
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

const PASSWORD = 'Right@2026';

describe('verifyPassword', () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword(PASSWORD);
  });

  it('accepts the password an argon2id hash was made from, and only that one', async () => {
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    expect(await verifyPassword(stored, 'Wrong@2026')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('refuses every password against a malformed, empty or non-argon2 hash', async () => {
    const unusable = {
      empty: '',
      blank: '   ',
      'plain text': PASSWORD,
      'MD5 hex': createHash('md5').update(PASSWORD).digest('hex'),
      bcrypt: '$2b$10$abcdefghijklmnopqrstuuM8pZC3O7j8E1bXrzV8S0dxZ4vW8N6K',
      'truncated argon2id': stored.slice(0, -6),
      'unknown argon2 variant': stored.replace('$argon2id$', '$argon2xx$'),
      'argon2id without salt or digest': '$argon2id$v=19$m=19456,t=2,p=1$$',
    };
    for (const [kind, hash] of Object.entries(unusable)) {
      for (const password of [PASSWORD, '', 'anything']) {
        expect(await verifyPassword(hash, password), `${kind} / ${password}`).toBe(false);
      }
    }
  });

  it('answers false against the dummy hash of an unknown account', async () => {
    expect(await verifyAgainstDummy(PASSWORD)).toBe(false);
  });

  it('spends on an unknown account one verification as costly as a real one, every time', async () => {
    const costOf = (hash: string) => hash.split('$').slice(1, 4).join('$');
    for (let i = 0; i < 2; i += 1) {
      vi.mocked(argon2.verify).mockClear();
      await verifyAgainstDummy(PASSWORD);
      expect(vi.mocked(argon2.verify)).toHaveBeenCalledTimes(1);
      const [dummy] = vi.mocked(argon2.verify).mock.calls[0]!;
      expect(costOf(String(dummy))).toBe(costOf(stored));
    }
    expect(costOf(stored)).toBe('argon2id$v=19$m=19456,t=2,p=1');
  });
});

describe('POST /api/auth/login against a corrupted password hash', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 with the generic message to the right password, and starts no challenge', async () => {
    const customer = await createCustomer(t, { password: PASSWORD });
    for (const corrupted of ['', 'not-an-argon2-hash', customer.passwordHash.slice(0, -6)]) {
      await t.deps.db
        .update(customers)
        .set({ passwordHash: corrupted })
        .where(eq(customers.id, customer.id));
      const res = await login(t, loginBody(customer), freshIp());
      expect(res.statusCode, JSON.stringify(corrupted)).toBe(401);
      expect(res.json()).toEqual({ success: false, message: authMessages.invalidLogin });
    }
    const challenges = await t.deps.db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.customerId, customer.id));
    expect(challenges).toEqual([]);
    expect(await t.outbox()).toEqual([]);
  });
});
