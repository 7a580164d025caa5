import { describe, expect, it } from 'vitest';
import { loadConfig, sandboxesInUse } from './config';

/** A production configuration complete but for e-invoicing. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://portal.example.in',
  JWT_SECRET: 'j'.repeat(32),
  LINK_SIGNING_SECRET: 'l'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
  PAYMENT_GATEWAY_URL: 'https://api.razorpay.com',
  PAYMENT_GATEWAY_KEY_ID: 'rzp_live_abc',
  PAYMENT_GATEWAY_KEY_SECRET: 'key-secret-1',
  PAYMENT_GATEWAY_WEBHOOK_SECRET: 'hook-secret-1',
  CONSENT_PROVIDER_URL: 'https://api.bank.example/open-banking/v3.1/aisp',
  CONSENT_PROVIDER_CLIENT_ID: 'portal-client',
  CONSENT_PROVIDER_CLIENT_SECRET: 'client-secret-1',
};

const irp = {
  E_INVOICE_URL: 'https://gsp.example.in/einvoice',
  E_INVOICE_CLIENT_ID: 'client',
  E_INVOICE_CLIENT_SECRET: 'secret',
  E_INVOICE_USERNAME: 'user',
  E_INVOICE_PASSWORD: 'password',
  E_INVOICE_GSTIN: '29AAGCL1234M1ZA',
};

describe('the e-invoicing settings', () => {
  it('are off by default, so that nothing is registered and no IRP is asked for', () => {
    const config = loadConfig(production);
    expect(config.E_INVOICING).toBe('off');
    expect(sandboxesInUse(config).irp).toBe(false);
  });

  it('refuse to start production with E_INVOICING=on and no IRP, unless SANDBOX=on', () => {
    expect(() => loadConfig({ ...production, E_INVOICING: 'on' })).toThrow(
      'Invalid configuration: E_INVOICE_URL, E_INVOICE_CLIENT_ID, E_INVOICE_CLIENT_SECRET, ' +
        'E_INVOICE_USERNAME, E_INVOICE_PASSWORD and E_INVOICE_GSTIN are required with ' +
        'E_INVOICING=on in production, which never runs the sandbox IRP',
    );
    const demo = loadConfig({ ...production, E_INVOICING: 'on', SANDBOX: 'on' });
    expect(sandboxesInUse(demo).irp).toBe(true);
  });

  it('ask for every credential with E_INVOICE_URL, sandbox or not', () => {
    const { E_INVOICE_PASSWORD: _password, ...noPassword } = irp;
    for (const env of [production, {}]) {
      expect(() => loadConfig({ ...env, ...noPassword, E_INVOICING: 'on' })).toThrow(
        'E_INVOICE_PASSWORD is required with E_INVOICE_URL',
      );
    }
    const real = loadConfig({ ...production, ...irp, E_INVOICING: 'on' });
    expect(sandboxesInUse(real).irp).toBe(false);
  });

  it('run the sandbox IRP outside production only when e-invoicing is on', () => {
    expect(sandboxesInUse(loadConfig({ E_INVOICING: 'on' })).irp).toBe(true);
    expect(sandboxesInUse(loadConfig({})).irp).toBe(false);
    const development = { ...production, NODE_ENV: 'development', E_INVOICING: 'on' };
    expect(() => loadConfig({ ...development, SANDBOX: 'off' })).toThrow(
      /E_INVOICE_URL, .* required with E_INVOICING=on and SANDBOX=off$/,
    );
  });

  it('refuse a GSTIN whose check character is wrong', () => {
    expect(() =>
      loadConfig({ ...production, ...irp, E_INVOICING: 'on', E_INVOICE_GSTIN: '29AAGCL1234M1ZB' }),
    ).toThrow('E_INVOICE_GSTIN must be a GSTIN with its check character');
  });
});
