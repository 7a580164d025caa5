import { randomUUID } from 'node:crypto';
import { maskAccountNumber } from '@portal/contract';
import type { AppDeps } from '../deps';
import { mapProviderStatus } from '../adapters/consent-provider';
import {
  authoriseBankConsent,
  createBankConsent,
  rejectBankConsent,
  revokeBankConsent,
} from '../sandbox/bank/service';
import { readAtBank } from '../sandbox/bank/reads';
import { partners } from '../modules/partners/schema';
import { hashApiKey, newApiKey } from '../modules/partners/service';
import { consentAccesses, consents } from '../modules/consents/schema';
import { tokenAad } from '../modules/consents/rows';
import { DAY_MS, HOUR_MS } from '../lib/clock';

const DEMO_PARTNERS = [
  { partnerId: 'PTN-TALLYLINK', name: 'TallyLink Bank Connector' },
  { partnerId: 'PTN-LEDGERSYNC', name: 'LedgerSync Plugin' },
  { partnerId: 'PTN-GSTRECON', name: 'GST Reconciler' },
  { partnerId: 'PTN-CASHFLOW', name: 'CashFlow Insights' },
] as const;

/** What each demo partner says it reads the data for, in the partners' order. */
const PURPOSES = [
  'Bank reconciliation in TallyPrime',
  'Daily import of bank entries into your books',
  'Matching bank receipts to your GST invoices',
  'Cash-flow forecasts from your balances and transactions',
];
const FETCHES_PER_DAY = [4, 2, 8, 1];
/** How long each partner keeps what it reads; the third does not say. */
const DATA_LIFE_DAYS = [365, 30, undefined, 1095];
/** The demo's one Approved consent that ends soon, so that Reconnect and Coming up show it. */
const ENDING_SOON = 8;
/** Consents the demo customer deleted: the History view shows them beside the expired ones. */
const REVOKED_DEMO_CONSENTS = 2;

const PERMISSION_SETS = [
  ['ReadAccountsBasic', 'ReadBalances'],
  ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'],
  [
    'ReadAccountsBasic',
    'ReadAccountsDetail',
    'ReadBalances',
    'ReadTransactionsDetail',
    'ReadStatementsDetail',
  ],
  ['ReadTransactionsBasic'],
  ['ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesDetail', 'ReadDirectDebits'],
];

type Plan = 'Pending' | 'Approved' | 'Rejected' | 'ExpiredLapsed' | 'ExpiredRevoked';

/** 28 consents over all four statuses; Pending ones are real requests the sandbox can decide. */
const PLANS: Plan[] = [
  'Pending',
  'Approved',
  'Rejected',
  'Pending',
  'ExpiredLapsed',
  'Approved',
  'Pending',
  'Rejected',
  'Approved',
  'ExpiredRevoked',
  'Pending',
  'Approved',
  'Rejected',
  'Pending',
  'ExpiredLapsed',
  'Approved',
  'Pending',
  'Rejected',
  'Approved',
  'ExpiredRevoked',
  'Pending',
  'Approved',
  'Rejected',
  'ExpiredLapsed',
  'Approved',
  'Pending',
  'Rejected',
  'ExpiredRevoked',
];

const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/**
 * Demo consents for the demo customer, each backed by a real record at the sandbox bank, so that
 * refreshing and deleting them behave as they would for new ones.
 */
export async function seedDemoConsents(deps: AppDeps, customerId: string) {
  const { db, clock, files } = deps;
  const { sandboxBank, encryption } = deps.consents;
  if (!sandboxBank) return;
  const now = clock.now();

  const partnerRows = [];
  for (const partner of DEMO_PARTNERS) {
    // keys nobody knows: an operator makes usable ones with partners:create. A second customer
    // seeded (the end-to-end suite's) shares the partners the first one's seed made.
    const [row] = await db
      .insert(partners)
      .values({
        ...partner,
        apiKeyHash: hashApiKey(newApiKey()),
        apiKeyPrefix: 'ptk_seeded',
        createdAt: new Date(now.getTime() - 120 * DAY_MS),
      })
      .onConflictDoUpdate({ target: partners.partnerId, set: { name: partner.name } })
      .returning();
    partnerRows.push(row!);
  }

  const plans: (Plan | 'Revoked')[] = [
    ...PLANS,
    ...Array.from({ length: REVOKED_DEMO_CONSENTS }, () => 'Revoked' as const),
  ];
  for (const [i, plan] of plans.entries()) {
    const ageDays = plan === 'Pending' ? 1 + i * 0.4 : 5 + i * 2.5;
    const createdAt = new Date(now.getTime() - ageDays * DAY_MS - i * HOUR_MS);
    const lifetime = plan === 'ExpiredLapsed' ? 3 * DAY_MS : 180 * DAY_MS;
    const expiry =
      i === ENDING_SOON
        ? new Date(now.getTime() + 12 * DAY_MS)
        : new Date(createdAt.getTime() + lifetime);
    const p = i % partnerRows.length;
    // every fifth partner request came without terms: the screens show their defaults
    const withTerms = i % 5 !== 4;
    const bank = await createBankConsent(db, clock, {
      clientId: sandboxBank.clientId,
      permissions: PERMISSION_SETS[i % PERMISSION_SETS.length]!,
      expirationDateTime: expiry,
      ...(withTerms
        ? {
            purpose: PURPOSES[p],
            transactionFromDateTime: new Date(createdAt.getTime() - 365 * DAY_MS),
            transactionToDateTime: expiry,
            fetchesPerDay: FETCHES_PER_DAY[p],
            dataLifeDays: DATA_LIFE_DAYS[p],
          }
        : {}),
      createdAt,
    });
    const decidedAt = new Date(createdAt.getTime() + 2 * HOUR_MS);
    let final = bank;
    if (plan !== 'Pending' && plan !== 'Rejected') {
      final = await authoriseBankConsent(db, clock, bank.consentId, { at: decidedAt });
    } else if (plan === 'Rejected') {
      final = await rejectBankConsent(db, clock, bank.consentId, { at: decidedAt });
    }
    if (plan === 'ExpiredRevoked' || plan === 'Revoked') {
      await revokeBankConsent(db, clock, bank.consentId, {
        at: new Date(decidedAt.getTime() + 2 * DAY_MS),
      });
      final = {
        ...final,
        status: 'Revoked',
        statusUpdateDateTime: new Date(decidedAt.getTime() + 2 * DAY_MS),
        accessToken: null,
        refreshToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
      };
    }

    const id = randomUUID();
    const documentKey = i % 3 === 0 ? `consents/${id}/document.pdf` : null;
    if (documentKey) await files.put(documentKey, SAMPLE_PDF);
    const partner = partnerRows[p]!;
    const revokedAt = plan === 'Revoked' ? final.statusUpdateDateTime : null;
    await db.insert(consents).values({
      id,
      customerId,
      partnerRef: partner.id,
      consentId: final.consentId,
      status: revokedAt
        ? 'Revoked'
        : mapProviderStatus(
            { status: final.status as 'Authorised', expiresAt: final.expirationDateTime },
            now,
          ),
      revokedAt,
      // the terms as the bank holds them (decision 044)
      purpose: final.purpose,
      transactionFrom: final.transactionFromDateTime,
      transactionTo: final.transactionToDateTime,
      fetchesPerDay: final.fetchesPerDay,
      dataLifeDays: final.dataLifeDays,
      accounts: withTerms ? [maskAccountNumber(`5010041234${String(5000 + i * 37)}`)] : [],
      providerStatus: final.status,
      permissions: final.permissions,
      netBankingUserId: plan === 'Pending' ? null : `ACMETRD${String(4100 + i)}`,
      documentKey,
      accessTokenEnc: final.accessToken
        ? encryption.encrypt(final.accessToken, tokenAad(id, 'access'))
        : null,
      accessTokenExpiresAt: final.accessTokenExpiresAt,
      refreshTokenEnc: final.refreshToken
        ? encryption.encrypt(final.refreshToken, tokenAad(id, 'refresh'))
        : null,
      refreshTokenExpiresAt: final.refreshTokenExpiresAt,
      expiresAt: final.expirationDateTime,
      providerCreatedAt: final.creationDateTime,
      providerStatusUpdatedAt: final.statusUpdateDateTime,
      createdAt,
      updatedAt: final.statusUpdateDateTime,
    });
    if (plan === 'Approved') {
      // one read an hour or more ago, on the bank's record and as the portal's last access
      const lastRead = new Date(now.getTime() - (i + 1) * HOUR_MS);
      const read = await readAtBank(
        db,
        { now: () => lastRead },
        {
          consentId: final.consentId,
          // what the consent's permissions let the partner read
          resource: final.permissions.some((name) => name.startsWith('ReadAccounts'))
            ? 'accounts'
            : 'transactions',
        },
      );
      if (read.outcome !== 'Allowed') throw new Error(`seeded read refused: ${read.outcome}`);
      await db.insert(consentAccesses).values({
        consentRef: id,
        lastAccessedAt: read.accessedAt,
        windowStartedAt: read.accessedAt,
        fetchesInWindow: 1,
        fetchesTotal: 1,
      });
    }
  }
}
