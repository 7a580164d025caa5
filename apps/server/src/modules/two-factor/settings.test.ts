import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorMessages, twoFactorPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { auditOf, byCustomer } from '../../test/audit';
import { secondFactorInvitations, twoFactorApps, twoFactorRecoveryCodes } from './schema';
import { twoFactorSubject } from './mail';
import { recoveryCodeHasher } from './recovery-codes';
import { disableApp, enableApp } from './service';
import {
  appCode,
  beforeFirstTransaction,
  codeStepsAway,
  nextStep,
  post,
  startSetup,
  startSignIn,
  status,
  verifyCode,
  verifyWithRecovery,
  withAppOn,
} from '../../test/two-factor';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowOf = async (customerId: string) =>
  (await t.deps.db.select().from(twoFactorApps).where(eq(twoFactorApps.customerId, customerId)))[0];
const codesOf = (customerId: string) =>
  t.deps.db
    .select()
    .from(twoFactorRecoveryCodes)
    .where(eq(twoFactorRecoveryCodes.customerId, customerId));
const noticesTo = async (email: string) =>
  (await t.outbox()).filter((m) => m.to === email).map((m) => m.subject);

const added = (customerId: string) =>
  byCustomer(customerId, 'two_factor_app_added', { recoveryCodes: 10 });
const refused = (customerId: string, reason: string) =>
  byCustomer(customerId, 'two_factor_app_removed', { reason }, 'failure');

describe('GET /api/security/two-factor', () => {
  it('answers the e-mailed code for a customer who never set the app up', async () => {
    const customer = await createCustomer(t);
    expect(await status(t, await authHeaders(t, customer.id))).toEqual({
      secondFactor: 'email',
      enabledAt: null,
      recoveryCodesLeft: 0,
      invitationDismissed: false,
    });
  });

  it('refuses a request without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: twoFactorPaths.status });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/security/two-factor/invitation/dismiss', () => {
  it('remembers the invitation turned down, for this customer alone, however often and at once', async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(t, twoFactorPaths.dismissInvitation, headers)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'The invitation to add an authenticator app will not be shown again.',
      });
    }
    expect(await status(t, headers)).toMatchObject({ invitationDismissed: true });
    const rows = await t.deps.db
      .select()
      .from(secondFactorInvitations)
      .where(eq(secondFactorInvitations.customerId, customer.id));
    expect(rows).toEqual([{ customerId: customer.id, dismissedAt: t.clock.now() }]);
    // turned down again later: the first time stands
    t.clock.advance(60_000);
    expect((await post(t, twoFactorPaths.dismissInvitation, headers)).statusCode).toBe(200);
    expect(
      (
        await t.deps.db
          .select()
          .from(secondFactorInvitations)
          .where(eq(secondFactorInvitations.customerId, customer.id))
      ).map((row) => row.dismissedAt),
    ).toEqual([rows[0]!.dismissedAt]);
    expect(await status(t, await authHeaders(t, other.id))).toMatchObject({
      invitationDismissed: false,
    });
  });

  it('refuses a request without a session, and changes nothing', async () => {
    const before = await t.deps.db.select().from(secondFactorInvitations);
    const res = await t.app.inject({ method: 'POST', url: twoFactorPaths.dismissInvitation });
    expect(res.statusCode).toBe(401);
    expect(await t.deps.db.select().from(secondFactorInvitations)).toEqual(before);
  });
});

describe('POST /api/security/two-factor/setup', () => {
  it('answers a base32 secret, its otpauth URI and an SVG QR code, and stores the secret sealed', async () => {
    const customer = await createCustomer(t);
    const setup = await startSetup(t, await authHeaders(t, customer.id));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.otpauthUri).toContain(`secret=${setup.secret}`);
    expect(setup.otpauthUri).toContain(encodeURIComponent(customer.email));
    const svg = Buffer.from(setup.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64');
    expect(svg.toString()).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    const row = await rowOf(customer.id);
    expect(row?.enabledAt).toBeNull();
    expect(row?.secret).not.toContain(setup.secret);
    expect(
      t.deps.consents.encryption.decrypt(row!.secret, `two-factor:${customer.id}:secret`),
    ).toBe(setup.secret);
  });

  it('replaces a set-up started earlier: the first secret no longer turns the app on', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const first = await startSetup(t, headers);
    const second = await startSetup(t, headers);
    expect(second.secret).not.toBe(first.secret);
    const res = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: appCode(t, first.secret),
    });
    expect(res.statusCode).toBe(400);
    expect((await status(t, headers)).secondFactor).toBe('email');
  });

  it('refuses while the app is on, and keeps its secret', async () => {
    const customer = await createCustomer(t);
    const { headers, secret } = await withAppOn(t, customer);
    const before = await rowOf(customer.id);
    const res = await post(t, twoFactorPaths.setup, headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(twoFactorMessages.alreadyOn);
    expect(await rowOf(customer.id)).toEqual(before);
    expect(appCode(t, secret)).toMatch(/^\d{6}$/);
  });
});

describe('POST /api/security/two-factor/enable', () => {
  it('turns the app on with the password and a code, answers ten recovery codes and mails a notice', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    const res = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(twoFactorMessages.enabled);
    const codes = res.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    // only keyed hashes are kept
    const hash = recoveryCodeHasher(t.deps.secrets.linkSigning);
    const stored = await codesOf(customer.id);
    expect(stored.map((c) => c.codeHash).sort()).toEqual(codes.map(hash).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace('-', ''));
    const now = await status(t, headers);
    expect(now).toEqual({
      secondFactor: 'app',
      enabledAt: t.clock.now().toISOString(),
      recoveryCodesLeft: 10,
      invitationDismissed: false,
    });
    expect(await noticesTo(customer.email)).toEqual([twoFactorSubject(true)]);
    const notice = (await t.outbox()).find((m) => m.to === customer.email)!;
    expect(notice.text).toContain('asks for a code from your authenticator app');
    expect(notice.text).toContain('When: 01/06/2026');
    expect(notice.text).not.toContain(secret);
    expect(await auditOf(t, customer.id)).toEqual([added(customer.id)]);
  });

  it('accepts a code one step old, and refuses one two steps away', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    const far = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: codeStepsAway(t, secret, -2),
    });
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toBe(twoFactorMessages.wrongCode);
    const near = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: codeStepsAway(t, secret, -1),
    });
    expect(near.statusCode).toBe(200);
  });

  it('refuses a wrong password with a right code, and turns nothing on', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    const res = await post(t, twoFactorPaths.enable, headers, {
      password: 'Not-the-password-1',
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(twoFactorMessages.wrongPassword);
    expect((await status(t, headers)).secondFactor).toBe('email');
    expect(await codesOf(customer.id)).toEqual([]);
    expect(await noticesTo(customer.email)).toEqual([]);
  });

  it.each([
    ['no body', undefined],
    ['no code', { password: 'Secret@123' }],
    ['no password', { code: '123456' }],
    ['a code of five digits', { password: 'Secret@123', code: '12345' }],
    ['a code with letters', { password: 'Secret@123', code: '12a456' }],
    ['a code as a number', { password: 'Secret@123', code: 123456 }],
    ['a control character', { password: 'Secret@123\u0000', code: '123456' }],
  ])('answers 400 for %s and changes nothing', async (_, payload) => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await startSetup(t, headers);
    const before = await rowOf(customer.id);
    const res = await post(t, twoFactorPaths.enable, headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await rowOf(customer.id)).toEqual(before);
  });

  it('turns on only the set-up the code was checked against, not one restarted meanwhile', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    let restarted: Promise<unknown> | undefined;
    // the set-up starts again between the code's check and the statement that turns it on
    const db = new Proxy(t.deps.db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof target.transaction>) => {
          restarted ??= startSetup(t, headers);
          await restarted;
          return target.transaction(...args);
        };
      },
    });
    await expect(
      enableApp({ ...t.deps, db }, customer.id, {
        password: customer.password,
        code: appCode(t, secret),
      }),
    ).rejects.toThrow(twoFactorMessages.wrongCode);
    expect(restarted).toBeDefined();
    expect((await status(t, headers)).secondFactor).toBe('email');
    expect(await codesOf(customer.id)).toEqual([]);
  });

  it('asks for a set-up first when none waits', async () => {
    const customer = await createCustomer(t);
    const res = await post(t, twoFactorPaths.enable, await authHeaders(t, customer.id), {
      password: customer.password,
      code: '123456',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(twoFactorMessages.noSetup);
  });

  it('refuses once the app is on', async () => {
    const customer = await createCustomer(t);
    const { headers, secret } = await withAppOn(t, customer);
    const res = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(409);
    expect((await codesOf(customer.id)).every((c) => c.usedAt === null)).toBe(true);
  });

  it('waits after twenty wrong codes in fifteen minutes, even with the right one', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    const wrong = String((Number(appCode(t, secret)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 20; i += 1) {
      const res = await post(t, twoFactorPaths.enable, headers, {
        password: customer.password,
        code: wrong,
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(blocked.statusCode).toBe(429);
    expect((await status(t, headers)).secondFactor).toBe('email');
    t.clock.advance(15 * 60_000);
    // a session of its own: the first one has been idle for the fifteen minutes
    const later = await post(t, twoFactorPaths.enable, await authHeaders(t, customer.id), {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(later.statusCode).toBe(200);
  });
});

describe('POST /api/security/two-factor/disable', () => {
  it('turns the app off with the password and a code from it, and mails a notice', async () => {
    const customer = await createCustomer(t);
    const { headers, secret } = await withAppOn(t, customer);
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(twoFactorMessages.disabled);
    expect(await status(t, headers)).toEqual({
      secondFactor: 'email',
      enabledAt: null,
      recoveryCodesLeft: 0,
      invitationDismissed: false,
    });
    expect(await rowOf(customer.id)).toBeUndefined();
    expect(await codesOf(customer.id)).toEqual([]);
    expect(await noticesTo(customer.email)).toEqual([
      twoFactorSubject(true),
      twoFactorSubject(false),
    ]);
    expect(await auditOf(t, customer.id)).toEqual([
      added(customer.id),
      byCustomer(customer.id, 'two_factor_app_removed', { with: 'app_code' }),
    ]);
  });

  it('turns the app off with a recovery code typed in capitals with spaces', async () => {
    const customer = await createCustomer(t);
    const { headers, recoveryCodes } = await withAppOn(t, customer);
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code: ` ${recoveryCodes[3]!.toUpperCase().replace('-', ' ')} `,
    });
    expect(res.statusCode).toBe(200);
    expect((await status(t, headers)).secondFactor).toBe('email');
    expect(await auditOf(t, customer.id)).toEqual([
      added(customer.id),
      byCustomer(customer.id, 'recovery_code_used'),
      byCustomer(customer.id, 'two_factor_app_removed', { with: 'recovery_code' }),
    ]);
  });

  it('turns the app off with a code from it typed with a space between its halves', async () => {
    const customer = await createCustomer(t);
    const { headers, secret } = await withAppOn(t, customer);
    const code = appCode(t, secret);
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await status(t, headers)).secondFactor).toBe('email');
    expect((await auditOf(t, customer.id)).at(-1)?.details).toEqual({ with: 'app_code' });
  });

  it('takes a recovery code of digits only, typed without its hyphen, as a recovery code', async () => {
    const customer = await createCustomer(t);
    const { headers, recoveryCodes } = await withAppOn(t, customer);
    // drawn from digits and letters, a recovery code can be all digits, or start or end with six
    const hash = recoveryCodeHasher(t.deps.secrets.linkSigning);
    await t.deps.db
      .update(twoFactorRecoveryCodes)
      .set({ codeHash: hash('12345-67890') })
      .where(
        and(
          eq(twoFactorRecoveryCodes.customerId, customer.id),
          eq(twoFactorRecoveryCodes.codeHash, hash(recoveryCodes[0]!)),
        ),
      );
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code: '1234567890',
    });
    expect(res.statusCode).toBe(200);
    expect((await status(t, headers)).secondFactor).toBe('email');
    expect((await auditOf(t, customer.id)).at(-1)?.details).toEqual({ with: 'recovery_code' });
  });

  it('refuses the code that turned the app on (replay) and keeps it on', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { secret } = await startSetup(t, headers);
    const code = appCode(t, secret);
    await post(t, twoFactorPaths.enable, headers, { password: customer.password, code });
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(twoFactorMessages.wrongCode);
    expect((await status(t, headers)).secondFactor).toBe('app');
  });

  it('refuses the right code with a wrong password, and a wrong code with the right password', async () => {
    const customer = await createCustomer(t);
    const { headers, secret, recoveryCodes } = await withAppOn(t, customer);
    const wrongPassword = await post(t, twoFactorPaths.disable, headers, {
      password: 'Not-the-password-1',
      code: appCode(t, secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(twoFactorMessages.wrongPassword);
    for (const code of [codeStepsAway(t, secret, 3), 'zzzzz-zzzzz', '']) {
      const res = await post(t, twoFactorPaths.disable, headers, {
        password: customer.password,
        code,
      });
      expect(res.statusCode).toBe(400);
    }
    expect(await status(t, headers)).toMatchObject({ secondFactor: 'app', recoveryCodesLeft: 10 });
    expect(recoveryCodes).toHaveLength(10);
    expect(await noticesTo(customer.email)).toEqual([twoFactorSubject(true)]);
    // the empty code is refused by the request's schema, before any check
    expect(await auditOf(t, customer.id)).toEqual([
      added(customer.id),
      refused(customer.id, 'wrong_password'),
      refused(customer.id, 'wrong_code'),
      refused(customer.id, 'wrong_code'),
    ]);
  });

  it('refuses a code from the app that a sign-in used after its check, and keeps the app on', async () => {
    const customer = await createCustomer(t);
    const { headers, secret } = await withAppOn(t, customer);
    const code = appCode(t, secret);
    const { tempToken } = await startSignIn(t, customer);
    let signIn: number | undefined;
    const db = beforeFirstTransaction(t.deps.db, async () => {
      signIn = (await verifyCode(t, tempToken, code)).statusCode;
    });
    await expect(
      disableApp({ ...t.deps, db }, customer.id, { password: customer.password, code }),
    ).rejects.toThrow(twoFactorMessages.wrongCode);
    expect(signIn).toBe(200);
    expect((await status(t, headers)).secondFactor).toBe('app');
    expect(await noticesTo(customer.email)).toEqual([twoFactorSubject(true)]);
    expect(await auditOf(t, customer.id)).toEqual([
      added(customer.id),
      expect.objectContaining({ action: 'sign_in', outcome: 'success' }),
      refused(customer.id, 'wrong_code'),
    ]);
  });

  it('refuses a recovery code that a sign-in used after its check, and keeps the app on', async () => {
    const customer = await createCustomer(t);
    const { headers, recoveryCodes } = await withAppOn(t, customer);
    const code = recoveryCodes[0]!;
    const { tempToken } = await startSignIn(t, customer);
    let signIn: number | undefined;
    const db = beforeFirstTransaction(t.deps.db, async () => {
      signIn = (await verifyWithRecovery(t, tempToken, code)).statusCode;
    });
    await expect(
      disableApp({ ...t.deps, db }, customer.id, { password: customer.password, code }),
    ).rejects.toThrow(twoFactorMessages.wrongCode);
    expect(signIn).toBe(200);
    expect(await status(t, headers)).toMatchObject({ secondFactor: 'app', recoveryCodesLeft: 9 });
    expect(await noticesTo(customer.email)).toEqual([twoFactorSubject(true)]);
    // the code is recorded used once, by the sign-in that used it
    expect(await auditOf(t, customer.id)).toEqual([
      added(customer.id),
      byCustomer(customer.id, 'recovery_code_used'),
      expect.objectContaining({ action: 'sign_in', outcome: 'success' }),
      refused(customer.id, 'wrong_code'),
    ]);
  });

  it('answers that the app is not on for a customer who takes e-mailed codes', async () => {
    const customer = await createCustomer(t);
    const res = await post(t, twoFactorPaths.disable, await authHeaders(t, customer.id), {
      password: customer.password,
      code: '123456',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(twoFactorMessages.notOn);
  });

  it('counts no wrong guess when no app is on: nothing is recorded, and the limit is untouched', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (let i = 0; i < 20; i += 1) {
      const res = await post(t, twoFactorPaths.disable, headers, {
        password: customer.password,
        code: '123456',
      });
      expect(res.json().message).toBe(twoFactorMessages.notOn);
    }
    expect(await auditOf(t, customer.id)).toEqual([]);
    // the limit of twenty wrong entries is shared with turning the app on
    const { secret } = await startSetup(t, headers);
    const res = await post(t, twoFactorPaths.enable, headers, {
      password: customer.password,
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("another customer and this one's settings", () => {
  it("cannot turn this customer's app off with this customer's password and code", async () => {
    const owner = await createCustomer(t);
    const other = await createCustomer(t, { password: owner.password });
    const { secret, recoveryCodes } = await withAppOn(t, owner);
    const otherHeaders = await authHeaders(t, other.id);
    for (const code of [appCode(t, secret), recoveryCodes[0]!]) {
      const res = await post(t, twoFactorPaths.disable, otherHeaders, {
        password: owner.password,
        code,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(twoFactorMessages.notOn);
    }
    expect(await status(t, await authHeaders(t, owner.id))).toMatchObject({
      secondFactor: 'app',
      recoveryCodesLeft: 10,
    });
  });

  it("neither sees nor replaces this customer's set-up", async () => {
    const owner = await createCustomer(t);
    const other = await createCustomer(t);
    const ownerHeaders = await authHeaders(t, owner.id);
    const { secret } = await startSetup(t, ownerHeaders);
    const otherHeaders = await authHeaders(t, other.id);
    const otherSetup = await startSetup(t, otherHeaders);
    expect(otherSetup.secret).not.toBe(secret);
    expect((await status(t, otherHeaders)).secondFactor).toBe('email');
    // the owner's own code still turns the owner's app on
    nextStep(t);
    const res = await post(t, twoFactorPaths.enable, ownerHeaders, {
      password: owner.password,
      code: appCode(t, secret),
    });
    expect(res.statusCode).toBe(200);
    expect((await status(t, otherHeaders)).secondFactor).toBe('email');
  });
});
