import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { createTestPartner, requestTestConsent } from '../modules/consents/testing';
import { findBankConsent } from '../sandbox/bank/service';
import { CliError } from './command';
import { consentCommands } from './consents';
import { printedBy } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function run(name: string, args: string[]) {
  const { out } = await printedBy(() => consentCommands[name]!.run(args, t.deps));
  return out.join('\n');
}

describe('consents CLI (the sandbox bank)', () => {
  it('lists waiting requests, authorises one and rejects another', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const a = await requestTestConsent(t, apiKey, customer.id);
    const b = await requestTestConsent(t, apiKey, customer.id);
    const pending = await run('consents:pending', []);
    expect(pending).toContain(a.consentId);
    expect(pending).toContain(b.consentId);

    expect(await run('consents:authorise', ['--consent', a.consentId])).toContain('authorised');
    expect(await run('consents:reject', ['--consent', b.consentId])).toContain('rejected');
    expect((await findBankConsent(t.deps.db, a.consentId))!.status).toBe('Authorised');
    expect((await findBankConsent(t.deps.db, b.consentId))!.status).toBe('Rejected');
    expect(await run('consents:pending', [])).not.toContain(a.consentId);
  });

  it('says plainly when a consent is unknown or already decided', async () => {
    await expect(run('consents:authorise', ['--consent', 'sbk-intent-none'])).rejects.toThrow(
      CliError,
    );
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const c = await requestTestConsent(t, apiKey, customer.id);
    await run('consents:reject', ['--consent', c.consentId]);
    await expect(run('consents:authorise', ['--consent', c.consentId])).rejects.toThrow(
      /already Rejected/,
    );
    await expect(run('consents:authorise', [])).rejects.toThrow('--consent is required');
  });
});
