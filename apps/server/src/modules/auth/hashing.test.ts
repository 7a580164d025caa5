import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import * as password from '../../lib/password';

type PasswordModule = typeof password;
import { freshIp, login, loginBody } from '../../test/auth';

// counts the argon2 work each login costs, without changing it
vi.mock('../../lib/password', async (importOriginal) => {
  const real = await importOriginal<PasswordModule>();
  return {
    ...real,
    verifyPassword: vi.fn(real.verifyPassword),
    verifyAgainstDummy: vi.fn(real.verifyAgainstDummy),
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => vi.mocked(password.verifyPassword).mockClear());

const hashes = () =>
  vi.mocked(password.verifyPassword).mock.calls.length +
  vi.mocked(password.verifyAgainstDummy).mock.calls.length;

describe('POST /api/auth/login timing', () => {
  it('costs one password verification for a known and for an unknown account', async () => {
    const customer = await createCustomer(t);
    vi.mocked(password.verifyAgainstDummy).mockClear();
    await login(t, loginBody(customer, { mobile: '9000000009' }), freshIp());
    expect(vi.mocked(password.verifyPassword)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(password.verifyAgainstDummy)).not.toHaveBeenCalled();

    vi.mocked(password.verifyPassword).mockClear();
    await login(t, loginBody(customer, { email: 'unknown-person@example.test' }), freshIp());
    expect(vi.mocked(password.verifyAgainstDummy)).toHaveBeenCalledTimes(1);
  });

  it('refuses a throttled attempt before any hashing', async () => {
    const customer = await createCustomer(t);
    for (let i = 0; i < 5; i += 1) {
      await login(t, loginBody(customer, { password: 'Wrong@123' }), freshIp());
    }
    const before = hashes();
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(429);
    expect(hashes()).toBe(before);
  });
});
