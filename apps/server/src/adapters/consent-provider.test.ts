import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { injectFetch } from '../lib/in-process-route';
import { authoriseBankConsent, rejectBankConsent } from '../sandbox/bank/service';
import {
  ConsentProviderError,
  createHttpConsentProvider,
  mapProviderStatus,
  type ConsentProvider,
} from './consent-provider';

const now = new Date('2026-06-01T10:00:00Z');
const later = new Date('2026-07-01T10:00:00Z');
const earlier = new Date('2026-05-01T10:00:00Z');

describe('mapProviderStatus', () => {
  it('maps AwaitingAuthorisation to Pending', () => {
    expect(mapProviderStatus({ status: 'AwaitingAuthorisation', expiresAt: later }, now)).toBe(
      'Pending',
    );
  });
  it('maps Authorised to Approved while the consent lasts', () => {
    expect(mapProviderStatus({ status: 'Authorised', expiresAt: later }, now)).toBe('Approved');
    expect(mapProviderStatus({ status: 'Authorised', expiresAt: null }, now)).toBe('Approved');
  });
  it('maps Authorised past its ExpirationDateTime to Expired, at the exact time', () => {
    expect(mapProviderStatus({ status: 'Authorised', expiresAt: earlier }, now)).toBe('Expired');
    expect(mapProviderStatus({ status: 'Authorised', expiresAt: now }, now)).toBe('Expired');
  });
  it('maps Rejected to Rejected, even past the expiry', () => {
    expect(mapProviderStatus({ status: 'Rejected', expiresAt: later }, now)).toBe('Rejected');
    expect(mapProviderStatus({ status: 'Rejected', expiresAt: earlier }, now)).toBe('Rejected');
  });
  it('maps Revoked at the bank to Expired', () => {
    expect(mapProviderStatus({ status: 'Revoked', expiresAt: later }, now)).toBe('Expired');
  });
  it('maps a request left waiting past its expiry to Expired', () => {
    expect(mapProviderStatus({ status: 'AwaitingAuthorisation', expiresAt: earlier }, now)).toBe(
      'Expired',
    );
  });
});

describe('the HTTP consent provider against the sandbox bank', () => {
  let t: TestApp;
  let provider: ConsentProvider;
  beforeAll(async () => {
    t = await createTestApp();
    provider = t.deps.consents.provider;
  });
  afterAll(() => t.close());

  const withFetch = (fetch: typeof globalThis.fetch, secret?: string) =>
    createHttpConsentProvider({
      baseUrl: 'http://bank.test/sandbox/bank',
      clientId: t.deps.consents.sandboxBank!.clientId,
      clientSecret: secret ?? t.deps.consents.sandboxBank!.clientSecret,
      fetch,
    });

  it('creates a consent that waits for authorisation', async () => {
    const consent = await provider.createConsent({ permissions: ['ReadBalances'] });
    expect(consent).toMatchObject({
      status: 'AwaitingAuthorisation',
      permissions: ['ReadBalances'],
      tokens: null,
    });
    expect(consent.consentId).toMatch(/^sbk-intent-/);
    // the bank's default lifetime is 90 days
    expect(consent.expiresAt!.getTime() - t.clock.now().getTime()).toBe(90 * 86_400_000);
  });

  it('reads the tokens issued on authorisation, with their expiry times', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 30 * 86_400_000);
    const created = await provider.createConsent({ permissions: ['ReadBalances'], expiresAt });
    await authoriseBankConsent(t.deps.db, t.clock, created.consentId);
    const read = await provider.getConsent(created.consentId);
    expect(read.status).toBe('Authorised');
    expect(read.expiresAt).toEqual(expiresAt);
    expect(read.tokens?.accessToken).toMatch(/^sbk_at_/);
    expect(read.tokens?.refreshTokenExpiresAt).toEqual(expiresAt);
    expect(read.tokens!.accessTokenExpiresAt.getTime()).toBeLessThanOrEqual(expiresAt.getTime());
    // the held token is accepted, another is not
    await expect(
      provider.getConsent(created.consentId, { accessToken: read.tokens!.accessToken }),
    ).resolves.toMatchObject({ status: 'Authorised' });
    await expect(
      provider.getConsent(created.consentId, { accessToken: 'sbk_at_forged' }),
    ).rejects.toMatchObject({ kind: 'refused' });
  });

  it('reports a rejection and a revocation', async () => {
    const a = await provider.createConsent({ permissions: ['ReadBalances'] });
    await rejectBankConsent(t.deps.db, t.clock, a.consentId);
    expect((await provider.getConsent(a.consentId)).status).toBe('Rejected');

    const b = await provider.createConsent({ permissions: ['ReadBalances'] });
    await provider.revokeConsent(b.consentId);
    expect((await provider.getConsent(b.consentId)).status).toBe('Revoked');
    // revoking again, or revoking what the bank does not know, is not an error
    await provider.revokeConsent(b.consentId);
    await provider.revokeConsent('sbk-intent-unknown');
  });

  it('keeps an authorised consent Authorised at the bank after its expiry, which maps to Expired', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000);
    const c = await provider.createConsent({ permissions: ['ReadBalances'], expiresAt });
    await authoriseBankConsent(t.deps.db, t.clock, c.consentId);
    t.clock.advance(3_600_000);
    const read = await provider.getConsent(c.consentId);
    expect(read.status).toBe('Authorised');
    expect(mapProviderStatus(read, t.clock.now())).toBe('Expired');
  });

  it('says not_found for a consent the bank does not know', async () => {
    await expect(provider.getConsent('sbk-intent-nothing')).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('is refused with wrong client credentials', async () => {
    const wrong = withFetch(
      injectFetch(() => t.app),
      'not-the-secret',
    );
    await expect(wrong.createConsent({ permissions: ['ReadBalances'] })).rejects.toMatchObject({
      kind: 'refused',
    });
  });

  it('calls an unreachable bank unreachable', async () => {
    const down = withFetch(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(down.getConsent('x')).rejects.toBeInstanceOf(ConsentProviderError);
    await expect(down.getConsent('x')).rejects.toMatchObject({ kind: 'unreachable' });
    await expect(down.revokeConsent('x')).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('treats a 5xx as unreachable', async () => {
    const failing = withFetch(async () => new Response('busy', { status: 503 }));
    await expect(failing.getConsent('x')).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('refuses garbage: HTML, JSON of another shape, an unknown status, another consent', async () => {
    const answers = [
      new Response('<html>gateway</html>', { status: 200 }),
      Response.json({ hello: 'world' }),
      Response.json({
        Data: {
          ConsentId: 'x',
          Status: 'Approved',
          StatusUpdateDateTime: now.toISOString(),
          CreationDateTime: now.toISOString(),
          Permissions: [],
        },
      }),
      Response.json({
        Data: {
          ConsentId: 'someone-else',
          Status: 'Authorised',
          StatusUpdateDateTime: now.toISOString(),
          CreationDateTime: now.toISOString(),
          Permissions: [],
        },
      }),
    ];
    for (const answer of answers) {
      const odd = withFetch(async () => answer);
      await expect(odd.getConsent('x')).rejects.toMatchObject({ kind: 'invalid_response' });
    }
  });
});
