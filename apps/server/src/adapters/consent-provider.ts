import type { ConsentStatus } from '@portal/contract';
import {
  BankErrorSchema,
  CONSENT_ACCESS_TOKEN_HEADER,
  ConsentResponseSchema,
  READ_REFUSALS,
  ReadResponseSchema,
  type BankResource,
  type BankTransaction,
  type ConsentResponse,
  type CreateConsentBody,
  type ReadRefusal,
  type SettableStatus,
  type StatusChangeBody,
} from './bank-wire';

export type ProviderStatus = ConsentResponse['Data']['Status'];

export interface ProviderTokens {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
}

/** What a consent allows, as the client asks for it and the bank answers it. */
export interface ConsentTerms {
  permissions: string[];
  expiresAt?: Date;
  transactionFrom?: Date | null;
  transactionTo?: Date | null;
  purpose?: string | null;
  fetchesPerDay?: number | null;
  /** How many days the client may keep what it reads. */
  dataLifeDays?: number | null;
}

/** A consent as the bank describes it, in the portal's types. */
export interface ProviderConsent {
  consentId: string;
  status: ProviderStatus;
  statusUpdatedAt: Date;
  createdAt: Date;
  permissions: string[];
  expiresAt: Date | null;
  /** The terms the bank holds; null where it named none. */
  transactionFrom: Date | null;
  transactionTo: Date | null;
  purpose: string | null;
  fetchesPerDay: number | null;
  dataLifeDays: number | null;
  tokens: ProviderTokens | null;
}

/** One allowed read, as the bank recorded it. */
export interface ProviderRead {
  accessId: string;
  accessedAt: Date;
  resource: BankResource;
  fetchesLeftToday: number;
  /** The transactions read; null for accounts. */
  transactions: BankTransaction[] | null;
}

/**
 * Why a provider call failed. `unreachable` and `invalid_response` say nothing about the
 * consent, so callers change nothing; `not_found` means the bank does not know it.
 */
export type ConsentProviderErrorKind = 'unreachable' | 'invalid_response' | 'refused' | 'not_found';

export class ConsentProviderError extends Error {
  constructor(
    readonly kind: ConsentProviderErrorKind,
    message: string,
    /** For a refused read: which of the consent's terms refused it. */
    readonly refusal?: ReadRefusal,
  ) {
    super(message);
  }
}

/** One bank-consent contract: Open Banking's account-access-consents. */
export interface ConsentProvider {
  createConsent(input: ConsentTerms): Promise<ProviderConsent>;
  /** Sends the access token held for the consent along, when there is one. */
  getConsent(consentId: string, held?: { accessToken?: string | null }): Promise<ProviderConsent>;
  /** Pauses an authorised consent, or resumes a paused one (decision 077). */
  setConsentStatus(consentId: string, status: SettableStatus): Promise<ProviderConsent>;
  /** Revokes at the bank; a consent the bank no longer knows counts as revoked. */
  revokeConsent(consentId: string): Promise<void>;
  /** Reads data under the consent; the bank applies its terms and records the read. */
  readData(
    consentId: string,
    read: { resource: BankResource; from?: Date; to?: Date },
    held?: { accessToken?: string | null },
  ): Promise<ProviderRead>;
}

/** The create body, one wire shape for the sandbox and a real bank alike (decision 044). */
export function consentRequestBody(terms: ConsentTerms): CreateConsentBody {
  // absent terms are left out (JSON drops undefined), so the bank applies its defaults
  return {
    Data: {
      Permissions: terms.permissions,
      ExpirationDateTime: terms.expiresAt?.toISOString(),
      TransactionFromDateTime: terms.transactionFrom?.toISOString(),
      TransactionToDateTime: terms.transactionTo?.toISOString(),
      Purpose: terms.purpose ?? undefined,
      Frequency: terms.fetchesPerDay ? { Unit: 'DAY', Value: terms.fetchesPerDay } : undefined,
      DataLife: terms.dataLifeDays ? { Unit: 'DAY', Value: terms.dataLifeDays } : undefined,
    },
    Risk: {},
  };
}

/** The portal's status for what the bank says (docs/decisions/010-consent-status-mapping.md). */
export function mapProviderStatus(
  consent: Pick<ProviderConsent, 'status' | 'expiresAt'>,
  now: Date,
): ConsentStatus {
  const lapsed = consent.expiresAt !== null && consent.expiresAt.getTime() <= now.getTime();
  switch (consent.status) {
    case 'AwaitingAuthorisation':
      return lapsed ? 'Expired' : 'Pending';
    case 'Authorised':
    case 'Paused':
      // a paused consent is still granted; the portal shows the pause beside it (decision 077)
      return lapsed ? 'Expired' : 'Approved';
    case 'Rejected':
      return 'Rejected';
    case 'Revoked':
      return 'Expired';
  }
}

export interface HttpConsentProviderOptions {
  /** For example https://bank.example/open-banking/v3.1/aisp, without the trailing slash. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const dateOrNull = (value: string | null | undefined) => (value ? new Date(value) : null);

function fromWire(body: ConsentResponse): ProviderConsent {
  const data = body.Data;
  return {
    consentId: data.ConsentId,
    status: data.Status,
    statusUpdatedAt: new Date(data.StatusUpdateDateTime),
    createdAt: new Date(data.CreationDateTime),
    permissions: data.Permissions,
    expiresAt: dateOrNull(data.ExpirationDateTime),
    transactionFrom: dateOrNull(data.TransactionFromDateTime),
    transactionTo: dateOrNull(data.TransactionToDateTime),
    purpose: data.Purpose ?? null,
    fetchesPerDay: data.Frequency?.Value ?? null,
    dataLifeDays: data.DataLife?.Value ?? null,
    tokens: data.Tokens
      ? {
          accessToken: data.Tokens.AccessToken,
          accessTokenExpiresAt: new Date(data.Tokens.AccessTokenExpirationDateTime),
          refreshToken: data.Tokens.RefreshToken,
          refreshTokenExpiresAt: new Date(data.Tokens.RefreshTokenExpirationDateTime),
        }
      : null,
  };
}

/** Speaks the contract over HTTP; the sandbox bank and a real provider differ only in config. */
export function createHttpConsentProvider(options: HttpConsentProviderOptions): ConsentProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    extra: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Basic ${basic}`,
          'x-fapi-interaction-id': crypto.randomUUID(),
          ...(extra.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra.headers,
        },
        body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw new ConsentProviderError('unreachable', 'The bank could not be reached');
    }
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return { status: response.status, body };
  }

  function failure(status: number): ConsentProviderError {
    if (status === 404)
      return new ConsentProviderError('not_found', 'The bank does not know this consent');
    if (status >= 500 || status === 429) {
      return new ConsentProviderError('unreachable', `The bank is not available (HTTP ${status})`);
    }
    return new ConsentProviderError('refused', `The bank refused the request (HTTP ${status})`);
  }

  const unreadable = () =>
    new ConsentProviderError('invalid_response', 'The bank sent an answer that could not be read');

  function parseConsent(body: unknown): ProviderConsent {
    const parsed = ConsentResponseSchema.safeParse(body);
    if (!parsed.success) throw unreadable();
    return fromWire(parsed.data);
  }

  /** A read the consent's terms refused says which one, in its ErrorCode; else as any failure. */
  function readFailure(status: number, body: unknown): ConsentProviderError {
    const parsed = BankErrorSchema.safeParse(body);
    const code = parsed.success ? parsed.data.Errors[0]!.ErrorCode : '';
    if (
      parsed.success &&
      (status === 403 || status === 429) &&
      Object.hasOwn(READ_REFUSALS, code)
    ) {
      const refusal = READ_REFUSALS[code as keyof typeof READ_REFUSALS];
      return new ConsentProviderError('refused', parsed.data.Message, refusal);
    }
    return failure(status);
  }

  const consentPath = (consentId: string) =>
    `/account-access-consents/${encodeURIComponent(consentId)}`;

  return {
    async createConsent(terms) {
      const { status, body } = await call('POST', '/account-access-consents', {
        body: consentRequestBody(terms),
      });
      if (status !== 201 && status !== 200) throw failure(status);
      const consent = parseConsent(body);
      if (consent.status !== 'AwaitingAuthorisation') {
        throw new ConsentProviderError(
          'invalid_response',
          'The bank created the consent in an unexpected state',
        );
      }
      return consent;
    },
    async getConsent(consentId, held) {
      const { status, body } = await call('GET', consentPath(consentId), {
        headers: held?.accessToken ? { [CONSENT_ACCESS_TOKEN_HEADER]: held.accessToken } : {},
      });
      if (status !== 200) throw failure(status);
      const consent = parseConsent(body);
      if (consent.consentId !== consentId) {
        throw new ConsentProviderError(
          'invalid_response',
          'The bank answered about another consent',
        );
      }
      return consent;
    },
    async setConsentStatus(consentId, wanted) {
      const body: StatusChangeBody = { Data: { Status: wanted } };
      const answer = await call('PATCH', consentPath(consentId), { body });
      if (answer.status !== 200) throw failure(answer.status);
      const consent = parseConsent(answer.body);
      if (consent.consentId !== consentId || consent.status !== wanted) {
        throw new ConsentProviderError(
          'invalid_response',
          'The bank answered about another consent or another status',
        );
      }
      return consent;
    },
    async revokeConsent(consentId) {
      const { status } = await call('DELETE', consentPath(consentId));
      if (status === 204 || status === 200 || status === 404) return;
      throw failure(status);
    },
    async readData(consentId, read, held) {
      const query = new URLSearchParams();
      if (read.from) query.set('fromBookingDateTime', read.from.toISOString());
      if (read.to) query.set('toBookingDateTime', read.to.toISOString());
      const search = query.size > 0 ? `?${query}` : '';
      const { status, body } = await call(
        'GET',
        `${consentPath(consentId)}/${read.resource}${search}`,
        { headers: held?.accessToken ? { [CONSENT_ACCESS_TOKEN_HEADER]: held.accessToken } : {} },
      );
      if (status !== 200) throw readFailure(status, body);
      const parsed = ReadResponseSchema.safeParse(body);
      if (!parsed.success) throw unreadable();
      const { Data, Meta } = parsed.data;
      const transactions = Data.Transaction ?? null;
      if (
        Data.ConsentId !== consentId ||
        Meta.Access.Resource !== read.resource ||
        (read.resource === 'transactions') !== (transactions !== null)
      ) {
        throw new ConsentProviderError(
          'invalid_response',
          'The bank answered about another consent or another read',
        );
      }
      return {
        accessId: Meta.Access.AccessId,
        accessedAt: new Date(Meta.Access.AccessDateTime),
        resource: Meta.Access.Resource,
        fetchesLeftToday: Meta.Access.FetchesLeftToday,
        transactions,
      };
    },
  };
}
