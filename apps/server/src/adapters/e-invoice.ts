import { createHash } from 'node:crypto';
import { z } from 'zod';
import { systemClock, type Clock } from '../lib/clock';

/**
 * A client of the NIC e-invoice API (version 1.03) of an Invoice Registration Portal, or of a
 * GSP that relays it: the base URL and the credentials alone choose which. Requests and answers
 * travel as clear JSON; the IRP's own encryption with its public key and the session key (Sek)
 * is a GSP's to do where one relays the calls.
 */
export interface EInvoiceSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** The supplier's GSTIN, sent with every call as the IRP asks. */
  gstin: string;
  timeoutMs?: number;
}

/** A document the IRP registered: what the printed invoice carries. */
export interface RegisteredDocument {
  irn: string;
  ackNo: string;
  ackDate: Date;
  signedQrCode: string;
  signedInvoice: string;
}

export interface CancelledDocument {
  irn: string;
  cancelDate: Date;
}

/** Why a document is cancelled, as the IRP numbers it (CnlRsn). */
export const CANCEL_REASONS = {
  duplicate: 1,
  dataEntryMistake: 2,
  orderCancelled: 3,
  other: 4,
} as const;
export type CancelReason = (typeof CANCEL_REASONS)[keyof typeof CANCEL_REASONS];

export interface IrpError {
  code: string;
  message: string;
}

/** The IRP answered and said no: the document or the request is at fault, not the IRP. */
export class EInvoiceRefusal extends Error {
  constructor(readonly errors: IrpError[]) {
    super(`the IRP refused: ${errors.map((e) => `${e.code} ${e.message}`).join('; ')}`);
  }

  /** Whether the IRP gave this code among its reasons. */
  has(code: string): boolean {
    return this.errors.some((error) => error.code === code);
  }
}

/** No answer, or one that is not the IRP's: nothing is known of the document, so try again. */
export class EInvoiceUnavailable extends Error {}

/**
 * The IRN of a document: the SHA-256 hex of supplier GSTIN + financial year (2019-20) +
 * document type + document number (einv-apisandbox.nic.in, "IRN"), e.g. of
 * "01AAAAA9999A19N2019-20INVABC01234". The IRP has treated document numbers without regard to
 * case since 1 June 2025, so the number is hashed in capitals.
 */
export function irnOf(parts: {
  gstin: string;
  financialYear: string;
  docType: string;
  docNo: string;
}): string {
  const key = `${parts.gstin}${parts.financialYear}${parts.docType}${parts.docNo.toUpperCase()}`;
  return createHash('sha256').update(key).digest('hex');
}

/** The IRP's "Invalid Token" (vital error 1005): the token went before its stated expiry. */
const INVALID_TOKEN = '1005';
/** A token is renewed this long before the IRP said it ends, so none is sent as it expires. */
const TOKEN_MARGIN_MS = 60_000;

const Failure = z.object({
  Status: z.union([z.literal(0), z.literal('0')]),
  ErrorDetails: z
    .array(z.object({ ErrorCode: z.coerce.string(), ErrorMessage: z.string() }))
    .min(1),
});

const success = <T extends z.ZodType>(data: T) =>
  z.object({ Status: z.union([z.literal(1), z.literal('1')]), Data: data });

/** The IRP writes its times as "yyyy-MM-dd HH:mm:ss", in India Standard Time. */
const IrpTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .transform((value) => new Date(`${value.replace(' ', 'T')}+05:30`));

const AuthAnswer = success(z.object({ AuthToken: z.string().min(1), TokenExpiry: IrpTime }));

const Irn = z.string().regex(/^[0-9a-f]{64}$/);

const DocumentAnswer = success(
  z.object({
    AckNo: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
    AckDt: IrpTime,
    Irn,
    SignedInvoice: z.string().min(1),
    SignedQRCode: z.string().min(1),
  }),
);

const CancelAnswer = success(z.object({ Irn, CancelDate: IrpTime }));

export function createEInvoiceClient(
  settings: EInvoiceSettings,
  clock: Clock = systemClock,
  fetchImpl: typeof fetch = fetch,
) {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const identity = {
    client_id: settings.clientId,
    client_secret: settings.clientSecret,
    gstin: settings.gstin,
  };
  let token: { value: string; expiresAt: Date } | null = null;
  // concurrent calls with no token wait for the one sign-in rather than each making its own
  let signingIn: Promise<string> | null = null;

  async function send<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: unknown,
    answer: T,
  ): Promise<z.output<T>> {
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          ...headers,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
        // the credentials go to the configured IRP and nowhere a redirect points
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw new EInvoiceUnavailable(`the IRP is unreachable: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EInvoiceUnavailable(`the IRP answered ${response.status} with no JSON`);
    }
    // the IRP refuses with 200 and Status 0; a 5xx is an outage whatever its body says
    const refused = response.status < 500 ? Failure.safeParse(json) : null;
    if (refused?.success) {
      throw new EInvoiceRefusal(
        refused.data.ErrorDetails.map((e) => ({ code: e.ErrorCode, message: e.ErrorMessage })),
      );
    }
    const parsed = answer.safeParse(json);
    if (!response.ok || !parsed.success) {
      throw new EInvoiceUnavailable(`the IRP answered ${response.status} in no known shape`);
    }
    return parsed.data;
  }

  async function signIn(): Promise<string> {
    const answer = await send(
      'POST',
      '/eivital/v1.04/auth',
      identity,
      {
        UserName: settings.username,
        Password: settings.password,
        AppKey: null,
        ForceRefreshAccessToken: false,
      },
      AuthAnswer,
    );
    token = { value: answer.Data.AuthToken, expiresAt: answer.Data.TokenExpiry };
    return token.value;
  }

  /** The token in hand while it has time left, else a new one. */
  async function authToken(): Promise<string> {
    if (token && token.expiresAt.getTime() - TOKEN_MARGIN_MS > clock.now().getTime()) {
      return token.value;
    }
    signingIn ??= signIn().finally(() => (signingIn = null));
    return signingIn;
  }

  /** A call with the token; once more with a new one if the IRP no longer knows it. */
  async function authorised<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    answer: T,
  ): Promise<z.output<T>> {
    const headers = async () => ({
      ...identity,
      user_name: settings.username,
      authtoken: await authToken(),
    });
    try {
      return await send(method, path, await headers(), body, answer);
    } catch (error) {
      if (!(error instanceof EInvoiceRefusal && error.has(INVALID_TOKEN))) throw error;
      token = null;
      return send(method, path, await headers(), body, answer);
    }
  }

  const registered = ({ Data }: z.output<typeof DocumentAnswer>): RegisteredDocument => ({
    irn: Data.Irn,
    ackNo: String(Data.AckNo),
    ackDate: Data.AckDt,
    signedQrCode: Data.SignedQRCode,
    signedInvoice: Data.SignedInvoice,
  });

  return {
    /** Signs in, or reuses the token while it lasts; exposed for a health check. */
    authenticate: authToken,

    /** Registers an INV-01 document (schema version 1.1) and answers its IRN. */
    async generate(document: object): Promise<RegisteredDocument> {
      return registered(
        await authorised('POST', '/eicore/v1.03/Invoice', document, DocumentAnswer),
      );
    },

    async getByIrn(irn: string): Promise<RegisteredDocument> {
      const path = `/eicore/v1.03/Invoice/irn/${encodeURIComponent(irn)}`;
      return registered(await authorised('GET', path, undefined, DocumentAnswer));
    },

    /** Cancels a document; the IRP allows it within 24 hours of its acknowledgement only. */
    async cancel(irn: string, reason: CancelReason, remark: string): Promise<CancelledDocument> {
      const body = { Irn: irn, CnlRsn: String(reason), CnlRem: remark };
      const { Data } = await authorised('POST', '/eicore/v1.03/Invoice/Cancel', body, CancelAnswer);
      return { irn: Data.Irn, cancelDate: Data.CancelDate };
    },
  };
}

export type EInvoiceClient = ReturnType<typeof createEInvoiceClient>;
