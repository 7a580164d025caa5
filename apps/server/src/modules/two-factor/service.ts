import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import {
  authMessages,
  twoFactorMessages,
  type SecondFactor,
  type TwoFactorStatus,
} from '@portal/contract';
import type { Database, Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { recoveryCodeHasher, newRecoveryCodes } from './recovery-codes';
import { secondFactorInvitations, twoFactorApps, twoFactorRecoveryCodes } from './schema';
import { acceptedStep, newSecret, otpauthUri, qrCodeDataUrl } from './totp';

export type TwoFactorDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'config' | 'queue' | 'consents' | 'secrets'
>;

type AppRow = typeof twoFactorApps.$inferSelect;

const APP_ADDED = 'two_factor_app_added';
const APP_REMOVED = 'two_factor_app_removed';

/** A wrong guess: counted against the limit, where other refusals are not. */
class WrongCode extends AppError {
  constructor() {
    super('BAD_REQUEST', twoFactorMessages.wrongCode);
  }
}
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

const hasherOf = (deps: TwoFactorDeps) => recoveryCodeHasher(deps.secrets.linkSigning);

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

/** What sign-in asks for after the password. */
export async function secondFactorOf(db: Database, customerId: string): Promise<SecondFactor> {
  return isOn(await appOf(db, customerId)) ? 'app' : 'email';
}

export async function twoFactorStatus(
  deps: TwoFactorDeps,
  customerId: string,
): Promise<TwoFactorStatus> {
  const [row, [dismissed]] = await Promise.all([
    appOf(deps.db, customerId),
    deps.db
      .select({ at: secondFactorInvitations.dismissedAt })
      .from(secondFactorInvitations)
      .where(eq(secondFactorInvitations.customerId, customerId)),
  ]);
  const invitationDismissed = dismissed !== undefined;
  if (!isOn(row)) {
    return { secondFactor: 'email', enabledAt: null, recoveryCodesLeft: 0, invitationDismissed };
  }
  const unused = await deps.db
    .select(
      // Stryker disable next-line ObjectLiteral: only the number of rows is read; a select of no columns answers the same rows
      { id: twoFactorRecoveryCodes.id },
    )
    .from(twoFactorRecoveryCodes)
    .where(
      and(eq(twoFactorRecoveryCodes.customerId, customerId), isNull(twoFactorRecoveryCodes.usedAt)),
    );
  return {
    secondFactor: 'app',
    enabledAt: row.enabledAt.toISOString(),
    recoveryCodesLeft: unused.length,
    invitationDismissed,
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

/**
 * The password, counted against the customer's limit of wrong entries before it is hashed
 * (the same limit as wrong codes); the customer's row for the notice. A wrong password or code
 * is recorded in the audit log as a refused `action`.
 */
async function checkedPassword<T>(
  deps: TwoFactorDeps,
  customerId: string,
  password: string,
  action: typeof APP_ADDED | typeof APP_REMOVED,
  check: (customer: { email: string; companyName: string }) => Promise<T>,
): Promise<T> {
  const refused = (reason: 'wrong_password' | 'wrong_code') =>
    recordAudit(deps.db, deps.clock, {
      actor: 'customer',
      customerId,
      action,
      outcome: 'failure',
      details: { reason },
    });
  const attempt = await reserveRateLimitHit(
    deps.db,
    deps.clock,
    'code',
    `two-factor:${customerId}`,
  );
  const [customer] = await deps.db
    .select({
      email: customers.email,
      companyName: customers.companyName,
      passwordHash: customers.passwordHash,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer || !(await verifyPassword(customer.passwordHash, password))) {
    await refused('wrong_password');
    throw new AppError('BAD_REQUEST', twoFactorMessages.wrongPassword);
  }
  // a refusal that is not a wrong guess (nothing to turn on or off) gives the count back
  const result = await check(customer).catch(async (error: unknown) => {
    if (error instanceof WrongCode) await refused('wrong_code');
    else await attempt.giveBack();
    throw error;
  });
  await attempt.giveBack();
  return result;
}

const queueNotice = (
  tx: Executor,
  deps: TwoFactorDeps,
  customer: { email: string; companyName: string },
  on: boolean,
) =>
  enqueueMail(tx, deps, {
    template: 'two-factor-changed',
    to: customer.email,
    data: { on, at: deps.clock.now().toISOString(), companyName: customer.companyName },
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
    const codes = newRecoveryCodes();
    const hash = hasherOf(deps);
    const now = deps.clock.now();
    await deps.db.transaction(async (tx) => {
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
      await tx
        .delete(twoFactorRecoveryCodes)
        .where(eq(twoFactorRecoveryCodes.customerId, customerId));
      await tx
        .insert(twoFactorRecoveryCodes)
        .values(codes.map((code) => ({ customerId, codeHash: hash(code), createdAt: now })));
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: APP_ADDED,
        details: { recoveryCodes: codes.length },
      });
      await queueNotice(tx, deps, customer, true);
    });
    return codes;
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

async function checkAppCode(
  deps: TwoFactorDeps,
  row: AppRow,
  { kind, code }: GivenCode,
): Promise<AppCodeCheck> {
  const { customerId } = row;
  if (kind === 'app') {
    const secret = openSecret(deps, row);
    const step =
      secret === null ? null : await acceptedStep(secret, code, deps.clock.now(), row.lastUsedStep);
    if (step === null)
      return {
        matches: false,
        // Stryker disable next-line BooleanLiteral: both callers read `matches` first and never claim a code that does not match
        claim: async () => false,
      };
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

/**
 * Sign-in step two for an account with the app on: the check of the code given, or undefined
 * when the account takes the e-mailed code.
 */
export async function appSignInCheck(
  deps: TwoFactorDeps,
  customerId: string,
  given: GivenCode,
): Promise<AppCodeCheck | undefined> {
  const row = await appOf(deps.db, customerId);
  return isOn(row) ? checkAppCode(deps, row, given) : undefined;
}

/** Turns the app off with a code from it or a recovery code; sign-in codes come by e-mail again. */
export async function disableApp(
  deps: TwoFactorDeps,
  customerId: string,
  input: { password: string; code: string },
): Promise<void> {
  await checkedPassword(deps, customerId, input.password, APP_REMOVED, async (customer) => {
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
    await deps.db.transaction(async (tx) => {
      if (!(await check.claim(tx))) throw wrongCode();
      await tx
        .delete(twoFactorRecoveryCodes)
        .where(eq(twoFactorRecoveryCodes.customerId, customerId));
      await tx.delete(twoFactorApps).where(eq(twoFactorApps.customerId, customerId));
      await recordAudit(tx, deps.clock, {
        actor: 'customer',
        customerId,
        action: APP_REMOVED,
        details: { with: kind === 'app' ? 'app_code' : 'recovery_code' },
      });
      await queueNotice(tx, deps, customer, false);
    });
  });
}
