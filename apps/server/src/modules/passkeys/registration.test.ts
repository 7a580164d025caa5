import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_TTL_MS,
  passkeyMessages,
  passkeyPaths,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { auditOf, byCustomer } from '../../test/audit';
import { authHeaders, createCustomer } from '../../test/customers';
import {
  addPasskey,
  newAuthenticator,
  registrationOptionsFor,
  withPasskey,
} from '../../test/passkeys';
import { post, status, withAppOn } from '../../test/two-factor';
import { twoFactorRecoveryCodes } from '../two-factor/schema';
import { passkeyChallenges, passkeys } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowsOf = (customerId: string) =>
  t.deps.db.select().from(passkeys).where(eq(passkeys.customerId, customerId));
const codesOf = (customerId: string) =>
  t.deps.db
    .select()
    .from(twoFactorRecoveryCodes)
    .where(eq(twoFactorRecoveryCodes.customerId, customerId));
const subjectsTo = async (email: string) =>
  (await t.outbox()).filter((m) => m.to === email).map((m) => m.subject);
const list = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: passkeyPaths.list, headers })).json();

describe('POST /api/security/passkeys/options', () => {
  it('answers creation options for this portal after the password, and keeps the challenge', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const options = await registrationOptionsFor(t, headers, customer.password);
    const origin = new URL(t.deps.config.PUBLIC_URL);
    expect(options).toMatchObject({
      rp: { id: origin.hostname, name: 'Connected Banking Portal' },
      user: { name: customer.email, displayName: customer.companyName },
      attestation: 'none',
      excludeCredentials: [],
      timeout: PASSKEY_CHALLENGE_TTL_MS,
    });
    const [kept] = await t.deps.db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challenge, options.challenge));
    expect(kept).toMatchObject({ customerId: customer.id, loginChallengeId: null });
    expect(kept!.expiresAt.getTime() - t.clock.now().getTime()).toBe(PASSKEY_CHALLENGE_TTL_MS);
  });

  it('refuses a wrong password, keeps no challenge and records the refusal', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const res = await post(t, passkeyPaths.registrationOptions, headers, { password: 'Wrong@123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(passkeyMessages.wrongPassword);
    const kept = await t.deps.db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.customerId, customer.id));
    expect(kept).toEqual([]);
    expect(await auditOf(t, customer.id)).toEqual([
      byCustomer(customer.id, 'passkey_added', { reason: 'wrong_password' }, 'failure'),
    ]);
  });

  it('refuses a request without a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: passkeyPaths.registrationOptions,
      payload: { password: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/security/passkeys', () => {
  it('adds the passkey, answers recovery codes with the first one only, and sends a notice', async () => {
    const customer = await createCustomer(t);
    const first = await withPasskey(t, customer, newAuthenticator(t), 'Work laptop');
    expect(first.recoveryCodes).toHaveLength(10);
    expect(await codesOf(customer.id)).toHaveLength(10);

    // listed by when they were added
    const addedAt = t.clock.now().toISOString();
    t.clock.advance(1000);
    const second = await withPasskey(t, customer, newAuthenticator(t), 'Phone');
    expect(second.recoveryCodes).toBeNull();
    expect(await codesOf(customer.id)).toHaveLength(10);

    const answer = await list(first.headers);
    expect(answer.data).toEqual({
      recoveryCodesLeft: 10,
      passkeys: [
        {
          id: first.passkey.id,
          name: 'Work laptop',
          createdAt: addedAt,
          lastUsedAt: null,
          synced: false,
        },
        expect.objectContaining({ id: second.passkey.id, name: 'Phone' }),
      ],
    });
    const [stored] = await rowsOf(customer.id);
    expect(stored).toMatchObject({
      credentialId: first.authenticator.id,
      signCount: 0,
      transports: 'internal',
    });
    expect(await status(t, first.headers)).toMatchObject({
      secondFactor: 'passkey',
      recoveryCodesLeft: 10,
    });
    expect(await subjectsTo(customer.email)).toEqual(['Passkey added', 'Passkey added']);
    expect(await auditOf(t, customer.id)).toEqual([
      byCustomer(customer.id, 'passkey_added', { passkeyId: first.passkey.id, recoveryCodes: 10 }),
      byCustomer(customer.id, 'passkey_added', { passkeyId: second.passkey.id }),
    ]);
  });

  it('keeps the recovery codes of an account whose app is on', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes: appCodes } = await withAppOn(t, customer);
    const { recoveryCodes } = await withPasskey(t, customer);
    expect(recoveryCodes).toBeNull();
    expect(await codesOf(customer.id)).toHaveLength(appCodes.length);
  });

  it('excludes the passkeys the customer has from the next options', async () => {
    const customer = await createCustomer(t);
    const { authenticator, headers } = await withPasskey(t, customer);
    const options = await registrationOptionsFor(t, headers, customer.password);
    expect(options.excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
  });

  it('refuses a credential made for another origin or relying party, and uses up the challenge', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (const bent of [{ origin: 'https://portal.example.evil' }, { rpId: 'example.evil' }]) {
      const options = await registrationOptionsFor(t, headers, customer.password);
      const res = await addPasskey(t, headers, newAuthenticator(t).register(options, bent));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(passkeyMessages.notVerified);
    }
    expect(await rowsOf(customer.id)).toEqual([]);
    expect(
      await t.deps.db
        .select()
        .from(passkeyChallenges)
        .where(eq(passkeyChallenges.customerId, customer.id)),
    ).toEqual([]);
  });

  it('takes each challenge once, in time, and only from the customer it was given to', async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const otherHeaders = await authHeaders(t, other.id);

    const replayed = newAuthenticator(t).register(
      await registrationOptionsFor(t, headers, customer.password),
    );
    expect((await addPasskey(t, headers, replayed)).statusCode).toBe(200);
    const again = await addPasskey(
      t,
      headers,
      newAuthenticator(t).register({
        challenge: JSON.parse(Buffer.from(replayed.response.clientDataJSON, 'base64url').toString())
          .challenge,
      }),
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(passkeyMessages.challengeExpired);

    const theirs = await registrationOptionsFor(t, otherHeaders, other.password);
    const stolen = await addPasskey(t, headers, newAuthenticator(t).register(theirs));
    expect(stolen.json().message).toBe(passkeyMessages.challengeExpired);

    const late = await registrationOptionsFor(t, headers, customer.password);
    t.clock.advance(PASSKEY_CHALLENGE_TTL_MS);
    const expired = await addPasskey(t, headers, newAuthenticator(t).register(late));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(passkeyMessages.challengeExpired);
    expect(await rowsOf(customer.id)).toHaveLength(1);
    expect(await rowsOf(other.id)).toEqual([]);
  });

  it('refuses a credential already added, to this account or another', async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const { authenticator, headers } = await withPasskey(t, customer);
    const otherHeaders = await authHeaders(t, other.id);
    for (const [who, h] of [
      [customer, headers],
      [other, otherHeaders],
    ] as const) {
      const options = await registrationOptionsFor(t, h, who.password);
      const res = await addPasskey(t, h, authenticator.register(options));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(passkeyMessages.alreadyAdded);
    }
    expect(await rowsOf(other.id)).toEqual([]);
  });

  it(`holds the limit of ${MAX_PASSKEYS} when more are added at once`, async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const tries = MAX_PASSKEYS + 5;
    const options = [];
    for (let i = 0; i < tries; i += 1) {
      options.push(await registrationOptionsFor(t, headers, customer.password));
    }
    const answers = await Promise.all(
      options.map((o) => addPasskey(t, headers, newAuthenticator(t).register(o))),
    );
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(MAX_PASSKEYS);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
    expect(await rowsOf(customer.id)).toHaveLength(MAX_PASSKEYS);
    expect(await codesOf(customer.id)).toHaveLength(10);
    const full = await post(t, passkeyPaths.registrationOptions, headers, {
      password: customer.password,
    });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(passkeyMessages.tooMany);
  });

  it('refuses a malformed credential with a 400 and changes nothing', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const options = await registrationOptionsFor(t, headers, customer.password);
    const good = newAuthenticator(t).register(options);
    const bad = [
      { ...good, type: 'password' },
      { ...good, response: { ...good.response, attestationObject: 'not base64url!' } },
      { ...good, response: { ...good.response, attestationObject: 'AAAA' } },
      {},
    ];
    for (const credential of bad) {
      expect((await addPasskey(t, headers, credential)).statusCode).toBe(400);
    }
    expect(await rowsOf(customer.id)).toEqual([]);
  });
});

describe('PATCH /api/security/passkeys/:id', () => {
  it("renames the customer's own passkey; another's, or an id that is none, is not found", async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const { passkey, headers } = await withPasskey(t, customer);
    const rename = (id: string, name: string, h = headers) =>
      t.app.inject({
        method: 'PATCH',
        url: passkeyPaths.rename.replace(':id', id),
        headers: h,
        payload: { name },
      });
    const res = await rename(passkey.id, '  Office key  ');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.passkey).toMatchObject({ id: passkey.id, name: 'Office key' });

    const theirs = await rename(passkey.id, 'Mine now', await authHeaders(t, other.id));
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(passkeyMessages.notFound);
    expect((await rename('not-an-id', 'x')).statusCode).toBe(404);
    expect((await rename(passkey.id, ' ')).json().message).toContain('Name is required');
    expect((await rename(passkey.id, 'x'.repeat(61))).statusCode).toBe(400);
    expect((await rowsOf(customer.id))[0]!.name).toBe('Office key');
  });
});

describe('POST /api/security/passkeys/:id/remove', () => {
  const remove = (id: string, password: string, headers: Record<string, string>) =>
    post(t, passkeyPaths.remove.replace(':id', id), headers, { password });

  it('removes after the password; the last one takes the recovery codes with it', async () => {
    const customer = await createCustomer(t);
    const first = await withPasskey(t, customer);
    const second = await withPasskey(t, customer, newAuthenticator(t), 'Phone');

    const wrong = await remove(first.passkey.id, 'Wrong@123', first.headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(passkeyMessages.wrongPassword);
    expect(await rowsOf(customer.id)).toHaveLength(2);

    expect((await remove(first.passkey.id, customer.password, first.headers)).statusCode).toBe(200);
    expect(await codesOf(customer.id)).toHaveLength(10);
    expect((await remove(second.passkey.id, customer.password, first.headers)).statusCode).toBe(
      200,
    );
    expect(await rowsOf(customer.id)).toEqual([]);
    expect(await codesOf(customer.id)).toEqual([]);
    expect(await status(t, first.headers)).toMatchObject({ secondFactor: 'email' });
    expect((await subjectsTo(customer.email)).filter((s) => s === 'Passkey removed')).toHaveLength(
      2,
    );
    expect(await auditOf(t, customer.id)).toEqual(
      expect.arrayContaining([
        byCustomer(customer.id, 'passkey_removed', { reason: 'wrong_password' }, 'failure'),
        byCustomer(customer.id, 'passkey_removed', { passkeyId: first.passkey.id }),
        byCustomer(customer.id, 'passkey_removed', { passkeyId: second.passkey.id }),
      ]),
    );
  });

  it('keeps the recovery codes while the app is on', async () => {
    const customer = await createCustomer(t);
    await withAppOn(t, customer);
    const { passkey, headers } = await withPasskey(t, customer);
    expect((await remove(passkey.id, customer.password, headers)).statusCode).toBe(200);
    expect(await codesOf(customer.id)).toHaveLength(10);
    expect(await status(t, headers)).toMatchObject({ secondFactor: 'app' });
  });

  it("does not remove another customer's passkey", async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const { passkey } = await withPasskey(t, customer);
    const otherHeaders = await authHeaders(t, other.id);
    const res = await remove(passkey.id, other.password, otherHeaders);
    expect(res.statusCode).toBe(404);
    expect(await rowsOf(customer.id)).toHaveLength(1);
  });
});
