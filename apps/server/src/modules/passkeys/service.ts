import { and, asc, count, eq } from 'drizzle-orm';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_TTL_MS,
  passkeyMessages,
  type Passkey,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { checkedPassword, type Confirmer } from '../two-factor/confirm';
import {
  dropRecoveryCodes,
  recoveryCodesLeft,
  replaceRecoveryCodes,
} from '../two-factor/recovery-codes';
import { appIsOn, hasherOf, type TwoFactorDeps } from '../two-factor/service';
import { challengeClaim, relyingParty, type ChallengeUse } from './relying-party';
import { passkeyChallenges, passkeys } from './schema';

export type PasskeyDeps = TwoFactorDeps;
type PasskeyRow = typeof passkeys.$inferSelect;

const notFound = () => new AppError('NOT_FOUND', passkeyMessages.notFound);

export const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  synced: row.backedUp,
});

export const passkeyRowsOf = (db: Executor, customerId: string) =>
  db
    .select()
    .from(passkeys)
    .where(eq(passkeys.customerId, customerId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));

export const transportsOf = (row: PasskeyRow) =>
  (row.transports === '' ? [] : row.transports.split(',')) as NonNullable<
    RegistrationResponseJSON['response']['transports']
  >;

export async function listPasskeys(deps: Pick<PasskeyDeps, 'db'>, customerId: string) {
  const [rows, left] = await Promise.all([
    passkeyRowsOf(deps.db, customerId),
    recoveryCodesLeft(deps.db, customerId),
  ]);
  return { passkeys: rows.map(toPasskey), recoveryCodesLeft: left };
}

/** The customer's id as the opaque user handle a passkey keeps: no e-mail or name in it. */
const userHandle = (customerId: string) =>
  new Uint8Array(Buffer.from(customerId.replace(/-/g, ''), 'hex'));

/**
 * After the password: the options for the browser to create a passkey, with a challenge kept
 * for this customer for five minutes. Passkeys the customer has are excluded, so an
 * authenticator that holds one says so rather than making a second.
 */
export async function registrationOptions(
  deps: PasskeyDeps,
  customerId: string,
  password: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return checkedPassword(deps, customerId, password, 'passkey_added', async (customer) => {
    const rows = await passkeyRowsOf(deps.db, customerId);
    if (rows.length >= MAX_PASSKEYS) throw new AppError('CONFLICT', passkeyMessages.tooMany);
    const rp = relyingParty(deps.config);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: customer.email,
      userDisplayName: customer.companyName,
      userID: userHandle(customerId),
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: rows.map((row) => ({
        id: row.credentialId,
        transports: transportsOf(row),
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    const now = deps.clock.now();
    await deps.db.insert(passkeyChallenges).values({
      challenge: options.challenge,
      customerId,
      loginChallengeId: null,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
      createdAt: now,
    });
    return options;
  });
}

const queueNotice = (
  tx: Executor,
  deps: PasskeyDeps,
  customer: Confirmer,
  change: { added: boolean; name: string },
) =>
  enqueueMail(tx, deps, {
    template: 'passkey-changed',
    to: customer.email,
    data: { ...change, at: deps.clock.now().toISOString(), companyName: customer.companyName },
  });

/**
 * The browser's new credential, checked against the challenge handed out (used once), this
 * portal's origin and relying party. The account's first second step beyond e-mail comes with
 * its recovery codes, shown once.
 */
export async function addPasskey(
  deps: PasskeyDeps,
  customerId: string,
  input: { name: string; credential: RegistrationResponseJSON },
): Promise<{ passkey: Passkey; recoveryCodes: string[] | null }> {
  const rp = relyingParty(deps.config);
  const now = deps.clock.now();
  const use: ChallengeUse = { found: false };
  const verified = await verifyRegistrationResponse({
    response: input.credential,
    expectedChallenge: challengeClaim(deps.db, now, customerId, null, use),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verified.verified) {
    throw new AppError(
      'BAD_REQUEST',
      use.found ? passkeyMessages.notVerified : passkeyMessages.challengeExpired,
    );
  }
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return deps.db.transaction(async (tx) => {
    // the customer's row held, so that passkeys added together keep to the limit
    const [customer] = await tx
      .select({ email: customers.email, companyName: customers.companyName })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('update');
    if (!customer) throw notFound();
    const [counted] = await tx
      .select({ held: count() })
      .from(passkeys)
      .where(eq(passkeys.customerId, customerId));
    const held = counted?.held ?? 0;
    if (held >= MAX_PASSKEYS) throw new AppError('CONFLICT', passkeyMessages.tooMany);
    const [row] = await tx
      .insert(passkeys)
      .values({
        customerId,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        signCount: credential.counter,
        transports: (credential.transports ?? []).join(','),
        backedUp: credentialBackedUp,
        name: input.name,
        createdAt: now,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    if (!row) throw new AppError('CONFLICT', passkeyMessages.alreadyAdded);
    const first = held === 0 && !(await appIsOn(tx, customerId));
    const recoveryCodes = first
      ? await replaceRecoveryCodes(tx, hasherOf(deps), customerId, now)
      : null;
    await recordAudit(tx, deps.clock, {
      actor: 'customer',
      customerId,
      action: 'passkey_added',
      details: { passkeyId: row.id, ...(recoveryCodes && { recoveryCodes: recoveryCodes.length }) },
    });
    await queueNotice(tx, deps, customer, { added: true, name: row.name });
    return { passkey: toPasskey(row), recoveryCodes };
  });
}

export async function renamePasskey(
  deps: Pick<PasskeyDeps, 'db'>,
  customerId: string,
  id: string,
  name: string,
): Promise<Passkey> {
  if (!isUuid(id)) throw notFound();
  const [row] = await deps.db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.customerId, customerId)))
    .returning();
  if (!row) throw notFound();
  return toPasskey(row);
}

/**
 * After the password: the passkey no longer signs in. With the account's last passkey gone and
 * no app, its recovery codes go too: sign-in asks for the e-mailed code again.
 */
export async function removePasskey(
  deps: PasskeyDeps,
  customerId: string,
  id: string,
  password: string,
): Promise<void> {
  // the customer's own passkey, before the password is asked about: an id that names none
  // counts no wrong password
  const owned = and(eq(passkeys.id, id), eq(passkeys.customerId, customerId));
  if (
    !isUuid(id) ||
    (await deps.db.select({ id: passkeys.id }).from(passkeys).where(owned)).length === 0
  ) {
    throw notFound();
  }
  await checkedPassword(deps, customerId, password, 'passkey_removed', async (customer) => {
    await deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(passkeys).where(owned).returning();
      if (!row) throw notFound();
      const [left] = await tx
        .select({ id: passkeys.id })
        .from(passkeys)
        .where(eq(passkeys.customerId, customerId))
        .limit(1);
      if (!left && !(await appIsOn(tx, customerId))) await dropRecoveryCodes(tx, customerId);
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: 'passkey_removed',
        details: { passkeyId: row.id },
      });
      await queueNotice(tx, deps, customer, { added: false, name: row.name });
    });
  });
}
