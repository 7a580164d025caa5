import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { loadConfig } from '../config';
import { DEMO_ACCOUNT, seedDemoIfEmpty } from '../demo/seed';
import { customers } from '../modules/users/schema';
import { startNotices } from './notices';

const secrets = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://portal.example.in',
  JWT_SECRET: 'j'.repeat(32),
  LINK_SIGNING_SECRET: 'l'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
};
// nothing listens there: building the app asks neither
const realServices = {
  PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9',
  PAYMENT_GATEWAY_KEY_ID: 'rzp_live_abc',
  PAYMENT_GATEWAY_KEY_SECRET: 'key-secret-1',
  PAYMENT_GATEWAY_WEBHOOK_SECRET: 'hook-secret-1',
  CONSENT_PROVIDER_URL: 'http://127.0.0.1:9/aisp',
  CONSENT_PROVIDER_CLIENT_ID: 'portal-client',
  CONSENT_PROVIDER_CLIENT_SECRET: 'client-secret-1',
};

const SANDBOX_REQUESTS = [
  { method: 'GET', url: '/sandbox/bank' },
  { method: 'POST', url: '/sandbox/bank/consents/sbk-intent-1/authorise' },
  { method: 'POST', url: '/sandbox/bank/account-access-consents' },
  { method: 'GET', url: '/sandbox/razorpay/checkout/plink_1' },
  { method: 'POST', url: '/sandbox/razorpay/checkout/plink_1/pay' },
  { method: 'POST', url: '/sandbox/razorpay/v1/payment_links' },
  { method: 'POST', url: '/sandbox/irp/eivital/v1.04/auth' },
  { method: 'GET', url: '/sandbox/irp/keys' },
] as const;

/** A real IRP, through a GSP, for production's e-invoicing. */
const realIrp = {
  E_INVOICING: 'on',
  E_INVOICE_URL: 'http://127.0.0.1:9/einvoice',
  E_INVOICE_CLIENT_ID: 'gsp-client',
  E_INVOICE_CLIENT_SECRET: 'gsp-secret',
  E_INVOICE_USERNAME: 'api-user',
  E_INVOICE_PASSWORD: 'api-password',
  E_INVOICE_GSTIN: '29AAGCL1234M1ZA',
};

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const customerCount = async (app: TestApp) =>
  (await app.deps.db.select({ n: count() }).from(customers))[0]!.n;

describe('a production portal', () => {
  it('mounts no sandbox and seeds no demo', async () => {
    t = await createTestApp({ env: { ...secrets, ...realServices, ...realIrp } });
    for (const request of SANDBOX_REQUESTS) {
      const res = await t.app.inject({ ...request, payload: {} });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
    }
    expect(t.deps.payments.settings.sandbox).toBe(false);
    expect(t.deps.consents.sandboxBank).toBeNull();
    expect(t.deps.eInvoicing?.sandboxIrp).toBeNull();
    expect(await seedDemoIfEmpty(t.deps)).toBe(false);
    expect(await customerCount(t)).toBe(0);
  });

  it('runs the sandboxes as a public demo only with SANDBOX=on, the bank page still behind its credentials', async () => {
    t = await createTestApp({ env: { ...secrets, SANDBOX: 'on' } });
    const bank = await t.app.inject({ method: 'GET', url: '/sandbox/bank' });
    expect(bank.statusCode).toBe(401);
    const api = await t.app.inject({
      method: 'POST',
      url: '/sandbox/razorpay/v1/payment_links',
      payload: {},
    });
    expect(api.statusCode).toBe(401);
    // the demo account still waits for SEED_DEMO=true
    expect(await seedDemoIfEmpty(t.deps)).toBe(false);
    expect(await customerCount(t)).toBe(0);
  });

  it('seeds the demo when SEED_DEMO=true names it', async () => {
    t = await createTestApp({ env: { ...secrets, SANDBOX: 'on', SEED_DEMO: 'true' } });
    expect(await seedDemoIfEmpty(t.deps)).toBe(true);
    expect(await customerCount(t)).toBe(1);
  });
});

describe('what the portal says at start', () => {
  it('in development: where the sandboxes and their credentials are, and no secret', async () => {
    t = await createTestApp();
    const { info, warnings } = startNotices(t.config, { demoSeeded: true });
    expect(warnings).toEqual([]);
    const text = info.join('\n');
    expect(text).toContain(`the sandbox bank at ${t.config.PUBLIC_URL}/sandbox/bank`);
    // tests ask for e-invoicing by name; the demo runs it
    expect(text).not.toContain('the sandbox IRP');
    expect(text).toContain(
      `its page asks for user "customer-portal" and the password "sandboxBankClientSecret" in ${path.join(t.config.DATA_DIR, 'secrets.json')}`,
    );
    expect(text).toContain('the details in README.md ("Quick start")');
    const stored = JSON.parse(
      await readFile(path.join(t.config.DATA_DIR, 'secrets.json'), 'utf8'),
    ) as Record<string, string>;
    for (const secret of [...Object.values(stored), DEMO_ACCOUNT.password]) {
      expect(text).not.toContain(secret);
    }
  });

  it('in production on the sandbox: a warning that plans are free, and where, not what, the credentials are', () => {
    const config = loadConfig({
      ...secrets,
      SANDBOX: 'on',
      SEED_DEMO: 'true',
      DATA_DIR: '/srv/portal',
    });
    const { info, warnings } = startNotices(config, { demoSeeded: false });
    expect(info).toEqual([]);
    expect(warnings).toEqual([
      'WARNING: SANDBOX=on in production. This portal is a public demo:',
      '  - the sandbox payment gateway at https://portal.example.in/sandbox/razorpay takes no money: anyone can pay any order on its checkout page, so every plan is free;',
      '  - the sandbox bank at https://portal.example.in/sandbox/bank decides banking consents; its page asks for user "customer-portal" and the password "sandboxBankClientSecret" in /srv/portal/secrets.json;',
      '  For real use, configure PAYMENT_GATEWAY_* and CONSENT_PROVIDER_* and remove SANDBOX=on.',
      'WARNING: SEED_DEMO=true in production: an empty database gets the demo account demo@acme.example, whose password is published in README.md.',
    ]);
  });

  it('names the sandbox IRP where e-invoicing runs on it, in the demo and in production', () => {
    const demo = loadConfig({ DATA_DIR: '/srv/portal' });
    expect(startNotices(demo, { demoSeeded: false }).info[0]).toBe(
      'Sandbox in use: the sandbox payment gateway at http://localhost:3000/sandbox/razorpay, the sandbox bank at http://localhost:3000/sandbox/bank and the sandbox IRP at http://localhost:3000/sandbox/irp.',
    );
    const production = loadConfig({
      ...secrets,
      ...realServices,
      SANDBOX: 'on',
      E_INVOICING: 'on',
    });
    expect(startNotices(production, { demoSeeded: false }).warnings).toEqual([
      'WARNING: SANDBOX=on in production. This portal is a public demo:',
      '  - the sandbox IRP at https://portal.example.in/sandbox/irp registers nothing with GSTN: the IRNs it gives are worth no input tax credit;',
      '  For real use, configure PAYMENT_GATEWAY_*, CONSENT_PROVIDER_* and E_INVOICE_* and remove SANDBOX=on.',
    ]);
  });

  it('in production on real services: nothing about sandboxes or the demo', () => {
    expect(
      startNotices(loadConfig({ ...secrets, ...realServices }), { demoSeeded: false }),
    ).toEqual({ info: [], warnings: [] });
  });
});
