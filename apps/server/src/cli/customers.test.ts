import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { verifyPassword } from '../lib/password';
import { bearer, freshIp, login, loginBody, signIn, waitForMailCount } from '../test/auth';
import { authPaths } from '@portal/contract';
import {
  createCustomerCommand,
  listCustomersCommand,
  resetPasswordCommand,
  type CliIo,
} from './customers';
import { CliError } from './command';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function fakeIo(answers: string[] = [], interactive = false) {
  const lines: string[] = [];
  const io: CliIo = {
    print: (line) => lines.push(line),
    interactive,
    promptSecret: async () => answers.shift() ?? '',
  };
  return { io, lines };
}

let n = 0;
const profileArgs = (overrides: Record<string, string> = {}) => {
  n += 1;
  const options = {
    email: `Operator${n}@Example.test`,
    mobile: '9876500000',
    'gst-no': '27aapfu0939f1zv',
    'tally-serial': '712345000',
    company: `Operator Company ${n}`,
    category: 'Retail',
    'tally-version': 'TallyPrime 5.1',
    ...overrides,
  };
  return Object.entries(options).flatMap(([k, v]) => [`--${k}`, v]);
};

describe('customers:create', () => {
  it('creates a customer who can sign in with the printed password', async () => {
    const { io, lines } = fakeIo();
    const customer = await createCustomerCommand(t.deps, profileArgs(), io);
    expect(customer.email).toBe(`operator${n}@example.test`);
    expect(customer.gstNo).toBe('27AAPFU0939F1ZV');
    expect(customer.customerType).toBe('Customer');
    const password = lines.at(-1)!.match(/: (\S+)$/)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    const res = await login(t, loginBody({ ...customer, password }), freshIp());
    expect(res.statusCode).toBe(200);
  });

  it('takes --password and prints no password then', async () => {
    const { io, lines } = fakeIo();
    const customer = await createCustomerCommand(
      t.deps,
      [...profileArgs(), '--password', 'Given@123'],
      io,
    );
    expect(await verifyPassword(customer.passwordHash, 'Given@123')).toBe(true);
    expect(lines.join('\n')).not.toContain('Given@123');
  });

  it('asks for the password twice on a terminal', async () => {
    const { io } = fakeIo(['Typed@123', 'Typed@123'], true);
    const customer = await createCustomerCommand(t.deps, profileArgs(), io);
    expect(await verifyPassword(customer.passwordHash, 'Typed@123')).toBe(true);
    const mismatch = fakeIo(['Typed@123', 'Other@123'], true);
    await expect(createCustomerCommand(t.deps, profileArgs(), mismatch.io)).rejects.toThrow(
      'the two passwords differ',
    );
  });

  it.each([
    [{ email: 'not-an-address' }, '--email must be an e-mail address'],
    [{ mobile: '12345' }, '--mobile must be a 10-digit Indian mobile number'],
    [{ 'gst-no': 'ABC' }, '--gst-no must be a 15-character GST number'],
    [{ 'tally-serial': '12ab' }, '--tally-serial must be 6 to 12 digits'],
    [{ company: '  ' }, '--company is required'],
    [{ password: '123' }, '--password: the password must be at least 6 characters long'],
    [
      { password: 'Welcome123' },
      '--password: the password is one of the most common and easily guessed: choose another',
    ],
  ])('refuses %o with one clear line', async (change, message) => {
    const { io } = fakeIo();
    const error = await createCustomerCommand(t.deps, profileArgs(change), io).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toContain(message);
  });

  it('refuses a missing option, an unknown option and a taken e-mail', async () => {
    const { io } = fakeIo();
    await expect(createCustomerCommand(t.deps, ['--email', 'a@b.test'], io)).rejects.toThrow(
      '--mobile is required',
    );
    await expect(
      createCustomerCommand(t.deps, [...profileArgs(), '--colour', 'red'], io),
    ).rejects.toThrow(CliError);
    const existing = await createCustomer(t);
    await expect(
      createCustomerCommand(t.deps, profileArgs({ email: existing.email.toUpperCase() }), io),
    ).rejects.toThrow(`a customer with e-mail ${existing.email} already exists`);
  });
});

describe('customers:list', () => {
  it('prints one line per customer under a header', async () => {
    const customer = await createCustomer(t);
    const { io, lines } = fakeIo();
    await listCustomersCommand(t.deps, [], io);
    expect(lines[0]).toMatch(/^E-mail\s+Company\s+Mobile\s+GST number\s+Tally serial\s+Created$/);
    expect(
      lines.some((l) => l.startsWith(customer.email) && l.includes(customer.companyName)),
    ).toBe(true);
  });
});

describe('customers:reset-password', () => {
  it('sets a generated password, prints it once and ends every session', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const { io, lines } = fakeIo();
    await resetPasswordCommand(t.deps, ['--email', customer.email], io);
    const password = lines.at(-1)!.match(/: (\S+)$/)![1]!;
    expect((await login(t, loginBody({ ...customer, password }), freshIp())).statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: authPaths.profile,
      headers: bearer(session.token),
    });
    expect(profile.statusCode).toBe(401);
  });

  it('mails a reset link with --send-link', async () => {
    const customer = await createCustomer(t);
    const before = (await t.outbox()).length;
    const { io, lines } = fakeIo();
    await resetPasswordCommand(t.deps, ['--email', customer.email, '--send-link'], io);
    const mail = (await waitForMailCount(t, before + 1)).at(-1)!;
    expect(mail.to).toContain(customer.email);
    expect(mail.text).toContain(`${t.config.PUBLIC_URL}/reset-password?token=`);
    expect(lines.join('\n')).toContain('Reset link sent');
  });

  it('refuses an unknown e-mail', async () => {
    const { io } = fakeIo();
    await expect(
      resetPasswordCommand(t.deps, ['--email', 'nobody@example.test'], io),
    ).rejects.toThrow('no customer has the e-mail nobody@example.test');
  });
});
