import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import {
  authMessages,
  twoFactorMessages,
  type SecondFactor,
  type TwoFactorStatus,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { passkeys } from '../passkeys/schema';
import { customers } from '../users/schema';
import { checkedPassword, WrongCode, type Confirmer } from './confirm';
import {
  dropRecoveryCodes,
  recoveryCodeHasher,
  recoveryCodesLeft,
  replaceRecoveryCodes,
} from './recovery-codes';
import { secondFactorInvitations, twoFactorApps, twoFactorRecoveryCodes } from './schema';
import { acceptedStep, newSecret, otpauthUri, qrCodeDataUrl } from './totp';

export type TwoFactorDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'config' | 'queue' | 'consents' | 'secrets'
>;

type AppRow = typeof twoFactorApps.$inferSelect;

const APP_ADDED = 'two_factor_app_added';
const APP_REMOVED = 'two_factor_app_removed';

const wrongCode = () => new WrongCode();
const alreadyOn = () => new AppError('CONFLICT', twoFactorMessages.alreadyOn);

/** The secret is sealed for its own customer: copied into another row, it does not open. */
const secretContext = (customerId: string) => `two-factor:${customerId}:secret`;

function openSecret(deps: TwoFactorDeps, row: AppRow): string | null {
  try {
    return deps.consents.encryption.decrypt(row.secret, secretContext(row.customerId));
  } catch {
    // a secret sealed with another key takes no code; the recovery codes still work
    return null;
  }
}

export const hasherOf = (deps: Pick<AppDeps, 'secrets'>) =>
  recoveryCodeHasher(deps.secrets.linkSigning);

async function appOf(db: Executor, customerId: string): Promise<AppRow | undefined> {
  const [row] = await db
    .select()
    .from(twoFactorApps)
    .where(eq(twoFactorApps.customerId, customerId))
    .limit(1);
  return row;
}

const isOn = (row: AppRow | undefined): row is AppRow & { enabledAt: Date } =>
  row?.enabledAt != null;

export const appIsOn = async (db: Executor, customerId: string) =>
  isOn(await appOf(db, customerId));

/** Whether the customer has a passkey: it signs in with one rather than a code. */
export async function hasPasskey(db: Executor, customerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.customerId, customerId))
    .limit(1);
  return row !== undefined;
}

/** What sign-in asks for after the password: a passkey first, where the account has one. */
export async function secondFactorOf(db: Executor, customerId: string): Promise<SecondFactor> {
  const [app, passkey] = await Promise.all([appOf(db, customerId), hasPasskey(db, customerId)]);
  if (passkey) return 'passkey';
  return isOn(app) ? 'app' : 'email';
}

export async function twoFactorStatus(
  deps: TwoFactorDeps,
  customerId: string,
): Promise<TwoFactorStatus> {
  const [row, passkey, [dismissed]] = await Promise.all([
    appOf(deps.db, customerId),
    hasPasskey(deps.db, customerId),
    deps.db
      .select({ at: secondFactorInvitations.dismissedAt })
      .from(secondFactorInvitations)
      .where(eq(secondFactorInvitations.customerId, customerId)),
  ]);
  const on = isOn(row);
  const secondFactor = passkey ? 'passkey' : on ? 'app' : 'email';
  return {
    secondFactor,
    enabledAt: on ? row.enabledAt.toISOString() : null,
    // codes exist only while the app or a passkey is on
    recoveryCodesLeft: secondFactor === 'email' ? 0 : await recoveryCodesLeft(deps.db, customerId),
    invitationDismissed: dismissed !== undefined,
  };
}

/** Remembers that the customer turned down the invitation to add the app; again changes nothing. */
export async function dismissInvitation(
  deps: Pick<TwoFactorDeps, 'db' | 'clock'>,
  customerId: string,
) {
  await deps.db
    .insert(secondFactorInvitations)
    .values({ customerId, dismissedAt: deps.clock.now() })
    .onConflictDoNothing();
}

/** A new secret waiting for its first code; a set-up started earlier is replaced. */
export async function startSetup(deps: TwoFactorDeps, customerId: string) {
  const [customer] = await deps.db
    .select({ email: customers.email })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
  const secret = newSecret();
  const sealed = deps.consents.encryption.encrypt(secret, secretContext(customerId));
  const now = deps.clock.now();
  const [stored] = await deps.db
    .insert(twoFactorApps)
    .values({ customerId, secret: sealed, createdAt: now })
    .onConflictDoUpdate({
      target: twoFactorApps.customerId,
      set: { secret: sealed, lastUsedStep: null, createdAt: now },
      // an app that is on stays as it is: turning it off asks for a code first
      setWhere: isNull(twoFactorApps.enabledAt),
    })
    .returning({ customerId: twoFactorApps.customerId });
  if (!stored) throw alreadyOn();
  const uri = otpauthUri(secret, customer.email);
  return { secret, otpauthUri: uri, qrCode: await qrCodeDataUrl(uri) };
}

const queueNotice = (
  tx: Executor,
  deps: TwoFactorDeps,
  customer: Confirmer,
  on: boolean,
  passkeyStays = false,
) =>
  enqueueMail(tx, deps, {
    template: 'two-factor-changed',
    to: customer.email,
    data: {
      on,
      at: deps.clock.now().toISOString(),
      companyName: customer.companyName,
      ...(passkeyStays && { passkeyStays }),
    },
  });

/** Turns the app on with the set-up's first code; answers the recovery codes, shown once. */
export async function enableApp(
  deps: TwoFactorDeps,
  customerId: string,
  input: { password: string; code: string },
): Promise<string[]> {
  return checkedPassword(deps, customerId, input.password, APP_ADDED, async (customer) => {
    const row = await appOf(deps.db, customerId);
    if (isOn(row)) throw alreadyOn();
    if (!row) throw new AppError('BAD_REQUEST', twoFactorMessages.noSetup);
    const secret = openSecret(deps, row);
    const step =
      secret === null ? null : await acceptedStep(secret, input.code, deps.clock.now(), null);
    if (step === null) throw wrongCode();
    const now = deps.clock.now();
    return deps.db.transaction(async (tx) => {
      // only the set-up this code was checked against: a set-up restarted meanwhile waits
      const [enabled] = await tx
        .update(twoFactorApps)
        .set({ enabledAt: now, lastUsedStep: step })
        .where(
          and(
            eq(twoFactorApps.customerId, customerId),
            isNull(twoFactorApps.enabledAt),
            eq(twoFactorApps.secret, row.secret),
          ),
        )
        .returning({ customerId: twoFactorApps.customerId });
      // the code was checked against a set-up that is no longer the one waiting
      if (!enabled) throw wrongCode();
      const codes = await replaceRecoveryCodes(tx, hasherOf(deps), customerId, now);
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: APP_ADDED,
        details: { recoveryCodes: codes.length },
      });
      await queueNotice(tx, deps, customer, true);
      return codes;
    });
  });
}

/** A code checked against an account with the app on, used by `claim` within a transaction. */
export interface AppCodeCheck {
  matches: boolean;
  /** Uses the code once: false when another request used it first. */
  claim(tx: Executor): Promise<boolean>;
}

/** A code of the app, or one of the recovery codes. */
export interface GivenCode {
  kind: 'app' | 'recovery';
  code: string;
}

// Stryker disable next-line BooleanLiteral: every caller reads `matches` first and never claims a code that does not match
const NO_MATCH: AppCodeCheck = { matches: false, claim: async () => false };

/** One of the customer's unused recovery codes. */
async function checkRecoveryCode(
  deps: TwoFactorDeps,
  customerId: string,
  code: string,
): Promise<AppCodeCheck> {
  const unused = and(
    eq(twoFactorRecoveryCodes.customerId, customerId),
    eq(twoFactorRecoveryCodes.codeHash, hasherOf(deps)(code)),
    isNull(twoFactorRecoveryCodes.usedAt),
  );
  const [found] = await deps.db
    .select(
      // Stryker disable next-line ObjectLiteral: only whether a row comes back is read; a select of no columns answers the same rows
      { id: twoFactorRecoveryCodes.id },
    )
    .from(twoFactorRecoveryCodes)
    .where(unused)
    .limit(1);
  return {
    matches: found !== undefined,
    async claim(tx) {
      const [used] = await tx
        .update(twoFactorRecoveryCodes)
        .set({ usedAt: deps.clock.now() })
        .where(unused)
        .returning({ id: twoFactorRecoveryCodes.id });
      if (used) {
        await recordAudit(tx, deps.clock, {
          actor: 'customer',
          customerId,
          action: 'recovery_code_used',
        });
      }
      return used !== undefined;
    },
  };
}

async function checkAppCode(
  deps: TwoFactorDeps,
  row: AppRow,
  { kind, code }: GivenCode,
): Promise<AppCodeCheck> {
  const { customerId } = row;
  if (kind === 'recovery') return checkRecoveryCode(deps, customerId, code);
  const secret = openSecret(deps, row);
  const step =
    secret === null ? null : await acceptedStep(secret, code, deps.clock.now(), row.lastUsedStep);
  if (step === null) return NO_MATCH;
  return {
    matches: true,
    async claim(tx) {
      // later steps only, in one statement: of two requests with one code, one wins
      const [used] = await tx
        .update(twoFactorApps)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(twoFactorApps.customerId, customerId),
            isNotNull(twoFactorApps.enabledAt),
            or(isNull(twoFactorApps.lastUsedStep), lt(twoFactorApps.lastUsedStep, step)),
          ),
        )
        .returning({ customerId: twoFactorApps.customerId });
      return used !== undefined;
    },
  };
}

/**
 * Sign-in step two by a typed code for an account with the app or a passkey: the check of the
 * code given, or undefined when the account takes the e-mailed code. A passkey account takes
 * its recovery codes only: it has no app whose code could match.
 */
export async function signInCodeCheck(
  deps: TwoFactorDeps,
  customerId: string,
  given: GivenCode,
): Promise<AppCodeCheck | undefined> {
  const row = await appOf(deps.db, customerId);
  if (isOn(row)) return checkAppCode(deps, row, given);
  if (!(await hasPasskey(deps.db, customerId))) return undefined;
  return given.kind === 'recovery' ? checkRecoveryCode(deps, customerId, given.code) : NO_MATCH;
}

/**
 * Turns the app off with a code from it or a recovery code; sign-in codes come by e-mail again,
 * unless the account has a passkey, which keeps the recovery codes. Answers whether it has.
 */
export async function disableApp(
  deps: TwoFactorDeps,
  customerId: string,
  input: { password: string; code: string },
): Promise<{ passkeyStays: boolean }> {
  return checkedPassword(deps, customerId, input.password, APP_REMOVED, async (customer) => {
    const row = await appOf(deps.db, customerId);
    if (!isOn(row)) throw new AppError('BAD_REQUEST', twoFactorMessages.notOn);
    // six digits (a space between the halves allowed) are the app's; anything else a recovery code
    const digits = input.code.replace(/\s/g, '');
    const kind = /^\d{6}$/.test(digits) ? 'app' : 'recovery';
    const check = await checkAppCode(deps, row, {
      kind,
      code: kind === 'app' ? digits : input.code,
    });
    if (!check.matches) throw wrongCode();
    return deps.db.transaction(async (tx) => {
      if (!(await check.claim(tx))) throw wrongCode();
      const passkeyStays = await hasPasskey(tx, customerId);
      if (!passkeyStays) await dropRecoveryCodes(tx, customerId);
      await tx.delete(twoFactorApps).where(eq(twoFactorApps.customerId, customerId));
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: APP_REMOVED,
        details: { with: kind === 'app' ? 'app_code' : 'recovery_code' },
      });
      await queueNotice(tx, deps, customer, false, passkeyStays);
      return { passkeyStays };
    });
  });
}
