import { describe, expect, it } from 'vitest';
import { loadConfig, sandboxesInUse } from './config';
import { production } from './test/production-config';

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

  it('run the sandbox IRP in the demo by default, and elsewhere outside production when asked', () => {
    expect(loadConfig({}).E_INVOICING).toBe('on');
    expect(sandboxesInUse(loadConfig({})).irp).toBe(true);
    expect(sandboxesInUse(loadConfig({ E_INVOICING: 'off' })).irp).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).E_INVOICING).toBe('off');
    expect(sandboxesInUse(loadConfig({ NODE_ENV: 'test', E_INVOICING: 'on' })).irp).toBe(true);
    // a development start with the real services of its own registers nothing unasked
    expect(loadConfig({ SANDBOX: 'off', ...production, NODE_ENV: 'development' }).E_INVOICING).toBe(
      'off',
    );
    const development = { ...production, NODE_ENV: 'development', E_INVOICING: 'on' };
    expect(() => loadConfig({ ...development, SANDBOX: 'off' })).toThrow(
      /E_INVOICE_URL, .* required with E_INVOICING=on and SANDBOX=off$/,
    );
  });

  it('ask for a supplier address that ends with its city, State and PIN', () => {
    expect(() =>
      loadConfig({ E_INVOICING: 'on', INVOICE_SUPPLIER_ADDRESS: 'Outer Ring Road, Bengaluru' }),
    ).toThrow('INVOICE_SUPPLIER_ADDRESS must end with its city, then its State and PIN');
    const config = loadConfig({
      E_INVOICING: 'on',
      INVOICE_SUPPLIER_ADDRESS: '12 MG Road, Pune, Maharashtra 411001',
    });
    expect(config.INVOICE_SUPPLIER_ADDRESS).toBe('12 MG Road, Pune, Maharashtra 411001');
    // off, the address is printed as given and never taken apart
    expect(
      loadConfig({ E_INVOICING: 'off', INVOICE_SUPPLIER_ADDRESS: 'Bengaluru' }).E_INVOICING,
    ).toBe('off');
  });

  it('refuse a GSTIN whose check character is wrong', () => {
    expect(() =>
      loadConfig({ ...production, ...irp, E_INVOICING: 'on', E_INVOICE_GSTIN: '29AAGCL1234M1ZB' }),
    ).toThrow('E_INVOICE_GSTIN must be a GSTIN with its check character');
  });
});
