import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changePasswordPath,
  dataExportDownloadPath,
  exportPaths,
  privacyPaths,
  twoFactorPaths,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { drainQueue } from '../../test/queue';
import { bearer, requestResetLink, resetPassword, signIn, waitForMailCount } from '../../test/auth';
import { runDataExportJob, type DataExportJob } from '../privacy/data-export';
import { codeMailedTo, post } from '../../test/privacy';
import { codeStepsAway, withAppOn } from '../../test/two-factor';
import { auditOf, byCustomer, expectNoneOf } from '../../test/audit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(t.deps, job));
});
afterAll(() => t.close());

describe('the audit log of second factors', () => {
  it('records the app added and removed, refusals and a recovery code used, and never the secret or a code', async () => {
    const customer = await createCustomer(t);
    const { secret, headers, recoveryCodes } = await withAppOn(t, customer);
    const farCode = codeStepsAway(t, secret, 20);
    const guess = 'Not@ThePassword';
    const disable = (password: string, code: string) =>
      post(t, twoFactorPaths.disable, headers, { password, code });
    expect((await disable(guess, farCode)).statusCode).toBe(400);
    expect((await disable(customer.password, farCode)).statusCode).toBe(400);
    expect((await disable(customer.password, recoveryCodes[0]!)).statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([
      byCustomer(customer.id, 'two_factor_app_added', { recoveryCodes: 10 }),
      byCustomer(customer.id, 'two_factor_app_removed', { reason: 'wrong_password' }, 'failure'),
      byCustomer(customer.id, 'two_factor_app_removed', { reason: 'wrong_code' }, 'failure'),
      byCustomer(customer.id, 'recovery_code_used'),
      byCustomer(customer.id, 'two_factor_app_removed', { with: 'recovery_code' }),
    ]);
    expectNoneOf(rows, [secret, farCode, guess, customer.password, ...recoveryCodes]);
  });
});

describe('the audit log of passwords', () => {
  it('records a change and a refused one, without either password', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const change = (currentPassword: string, password: string) =>
      t.app.inject({
        method: 'PUT',
        url: changePasswordPath(customer.id),
        headers: bearer(session.token),
        payload: { currentPassword, password },
      });
    const guess = 'Wrong@Current1';
    const fresh = 'Fresh@Pass2026';
    expect((await change(guess, fresh)).statusCode).toBe(400);
    expect((await change(customer.password, fresh)).statusCode).toBe(200);

    const rows = (await auditOf(t, customer.id)).filter((row) => row.action !== 'sign_in');
    expect(rows).toEqual([
      byCustomer(customer.id, 'password_changed', { reason: 'wrong_password' }, 'failure'),
      byCustomer(customer.id, 'password_changed'),
    ]);
    expectNoneOf(rows, [guess, fresh, customer.password, session.token]);
  });

  it('records a reset link sent and the reset by it, without the link or the new password', async () => {
    const customer = await createCustomer(t);
    const before = (await t.outbox()).length;
    expect((await requestResetLink(t, customer.email)).statusCode).toBe(200);
    const mail = (await waitForMailCount(t, before + 1)).at(-1)!;
    const link = mail.text.match(/\S+\/reset-password\?token=\S+/)![0];
    const token = new URL(link).searchParams.get('token')!;
    const fresh = 'Reset@Pass2026';
    expect((await resetPassword(t, token, fresh)).statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([
      byCustomer(customer.id, 'password_reset_link_sent'),
      byCustomer(customer.id, 'password_reset', { via: 'email_link' }),
    ]);
    expectNoneOf(rows, [token, fresh, customer.password, customer.email]);
  });
});

describe('the audit log of the account', () => {
  it('records an e-mail change without either address or the code', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const newEmail = `moved-${customer.id.slice(0, 8)}@example.test`;
    const asked = await post(t, privacyPaths.emailChangeCode, headers, {
      newEmail,
      password: customer.password,
    });
    expect(asked.statusCode).toBe(200);
    const code = await codeMailedTo(t, newEmail);
    expect((await post(t, privacyPaths.emailChange, headers, { code })).statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([byCustomer(customer.id, 'email_changed')]);
    expectNoneOf(rows, [customer.email, newEmail, code, customer.password]);
  });

  it('records the closing, and keeps the row once the account is erased', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await post(t, privacyPaths.closeAccountCode, headers)).statusCode).toBe(200);
    const code = await codeMailedTo(t, customer.email);
    const closed = await post(t, privacyPaths.closeAccount, headers, {
      password: customer.password,
      code,
    });
    expect(closed.statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([byCustomer(customer.id, 'account_closed')]);
    expectNoneOf(rows, [customer.email, customer.companyName, customer.mobile, code]);
  });
});

describe('the audit log of data leaving the portal', () => {
  it('records "Download my data" asked for, prepared by the system and downloaded', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const asked = await post(t, privacyPaths.dataExport, headers);
    expect(asked.statusCode).toBe(202);
    const exportId: string = asked.json().data.id;
    await drainQueue(t, 'data-export');
    const link = t.deps.signedLinks.sign(dataExportDownloadPath(exportId), customer.id, 3600);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([
      byCustomer(customer.id, 'data_export_requested', { exportId }),
      {
        ...byCustomer(customer.id, 'data_export_prepared', { exportId }),
        actorKind: 'system',
        actorId: null,
      },
      byCustomer(customer.id, 'data_export_downloaded', { exportId }),
    ]);
    expectNoneOf(rows, [new URL(link, 'http://x').search.slice(1), customer.email]);
  });

  it('records each export downloaded, Tally included, with its kind and range', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const range = { from: '2026-04-01', to: '2026-05-31' };
    for (const kind of ['tally', 'orders']) {
      const link = await t.app.inject({
        method: 'POST',
        url: exportPaths.link,
        headers,
        payload: { kind, range },
      });
      expect(link.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: link.json().url })).statusCode).toBe(200);
    }

    expect(await auditOf(t, customer.id)).toEqual([
      byCustomer(customer.id, 'export_downloaded', { kind: 'tally', ...range }),
      byCustomer(customer.id, 'export_downloaded', { kind: 'orders', ...range }),
    ]);
  });
});
