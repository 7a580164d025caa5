import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EInvoicingDeps } from '../../deps';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import type { App } from '../../lib/types';
import { cancelIrpDocument, findIrpDocument, insertIrpDocument, newAckNo } from './documents';
import { irpError, type IrpErrorDetail } from './errors';
import { schemaProblems, type Inv01 } from './inv-01';
import { documentDay, irnOf, irpTime, ruleProblems } from './rules';
import type { SandboxIrpDocumentRow } from './schema';
import { createIrpSigner, qrPayload } from './signing';

/** How long an AuthToken lasts, as the IRP gives it. */
const TOKEN_LIFETIME_MS = 6 * HOUR_MS;
/** The IRP takes a cancellation within 24 hours of the acknowledgement. */
const CANCEL_WINDOW_MS = DAY_MS;

const AuthBodySchema = z.object({ UserName: z.string(), Password: z.string() });
const CancelBodySchema = z.object({
  Irn: z.string(),
  CnlRsn: z.enum(['1', '2', '3', '4']),
  CnlRem: z.string().min(1).max(100),
});

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
};

/** The IRP says no with HTTP 200 and Status 0, the reasons in ErrorDetails. */
const refusal = (errors: IrpErrorDetail[], info?: object[]) => ({
  Status: 0 as const,
  ErrorDetails: errors,
  ...(info ? { InfoDtls: info } : {}),
});
const success = (data: object) => ({ Status: 1 as const, Data: data });

const documentAnswer = (row: SandboxIrpDocumentRow) =>
  success({
    AckNo: Number(row.ackNo),
    AckDt: irpTime(row.ackDate),
    Irn: row.irn,
    SignedInvoice: row.signedInvoice,
    SignedQRCode: row.signedQrCode,
    Status: row.status,
    EwbNo: null,
    EwbDt: null,
    EwbValidTill: null,
    Remarks: null,
  });

/** The IRP names the IRN already registered, so that the supplier can take it up. */
const duplicateAnswer = (row: SandboxIrpDocumentRow) =>
  refusal(
    [irpError('duplicate')],
    [
      {
        InfCd: 'DUPIRN',
        Desc: { AckNo: Number(row.ackNo), AckDt: irpTime(row.ackDate), Irn: row.irn },
      },
    ],
  );

// the error list has no code for it; the IRN is no longer there to act on
const cancelledAlready = () => refusal([irpError('irnNotFound', 'the IRN is cancelled already')]);

/**
 * An Invoice Registration Portal that speaks NIC's e-invoice API 1.03 to one API user, inside
 * the portal's own server, so that e-invoicing runs with no account at a GSP. Mounted only when
 * the portal uses it.
 */
export function sandboxIrpRoutes(options: NonNullable<EInvoicingDeps['sandboxIrp']>) {
  return async function plugin(app: App) {
    const { db, clock } = app.deps;
    const signer = await createIrpSigner();
    options.route?.serve(app);
    /** The live AuthTokens and when each ends; a restart signs everybody out, as at the IRP. */
    const tokens = new Map<string, Date>();

    // the IRP's refusal for whatever cannot be read; a failure stays the portal's 5xx
    app.setErrorHandler((error: FastifyError, _request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const problems = error.validation.map((issue) => {
          const field = issue.instancePath.slice(1).replaceAll('/', '.') || 'the request';
          return irpError('schema', `${field} ${issue.message ?? 'is not valid'}`);
        });
        return reply.send(refusal(problems));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.code(status).send(refusal([irpError('schema', error.message)]));
      }
      throw error;
    });

    /** The API user's client and GSTIN, as every call names them in its headers. */
    const knownClient = (request: FastifyRequest) =>
      sameSecret(header(request, 'client_id'), options.clientId) &&
      sameSecret(header(request, 'client_secret'), options.clientSecret) &&
      header(request, 'gstin') === options.gstin;

    const liveToken = (request: FastifyRequest) => {
      const expiresAt = tokens.get(header(request, 'authtoken'));
      return expiresAt !== undefined && expiresAt.getTime() > clock.now().getTime();
    };

    const hidden = { schema: { hide: true } };
    // who calls is known before the body is read, so that a stranger learns nothing of it
    const client = {
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!knownClient(request)) return reply.send(refusal([irpError('invalidClient')]));
      },
    };
    const signedIn = {
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        const user = sameSecret(header(request, 'user_name'), options.username);
        if (!(knownClient(request) && user && liveToken(request))) {
          return reply.send(refusal([irpError('invalidToken')]));
        }
      },
    };

    const authOptions = { ...client, schema: { hide: true, body: AuthBodySchema } };
    app.post('/eivital/v1.04/auth', authOptions, async (request) => {
      const { UserName, Password } = request.body;
      if (!(sameSecret(UserName, options.username) && sameSecret(Password, options.password))) {
        return refusal([irpError('invalidLogin')]);
      }
      const now = clock.now();
      for (const [token, expiresAt] of tokens) {
        if (expiresAt.getTime() <= now.getTime()) tokens.delete(token);
      }
      const authToken = randomBytes(24).toString('base64url');
      const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
      tokens.set(authToken, expiresAt);
      return success({
        ClientId: options.clientId,
        UserName: options.username,
        AuthToken: authToken,
        // the key the IRP would encrypt with; here the calls travel as clear JSON
        Sek: randomBytes(32).toString('base64'),
        TokenExpiry: irpTime(expiresAt),
      });
    });

    app.post('/eicore/v1.03/Invoice', { ...hidden, ...signedIn }, async (request) => {
      const schemaRefusals = schemaProblems(request.body);
      if (schemaRefusals.length > 0) return refusal(schemaRefusals);
      const document = request.body as Inv01;
      const now = clock.now();
      const seller = document.SellerDtls.Gstin;
      const problems = [
        ...(seller === options.gstin
          ? []
          : [irpError('schema', `SellerDtls.Gstin ${seller} is not the API user's GSTIN`)]),
        // the sandbox holds its supplier to the 30-day window of a large one
        ...ruleProblems(document, now, { largeSupplier: true }),
      ];
      if (problems.length > 0) return refusal(problems);

      // the rules refuse a date that is no date
      const day = documentDay(document.DocDtls.Dt)!;
      const irn = irnOf(document, day);
      const earlier = await findIrpDocument(db, irn);
      if (earlier) return duplicateAnswer(earlier);

      const ackNo = newAckNo();
      const ackDate = irpTime(now);
      const [signedInvoice, signedQrCode] = await Promise.all([
        signer.sign({ ...document, Irn: irn, AckNo: Number(ackNo), AckDt: ackDate }),
        signer.sign(qrPayload(document, irn, ackDate)),
      ]);
      const row = await insertIrpDocument(db, {
        irn,
        document,
        day,
        ackNo,
        ackDate: now,
        signedInvoice,
        signedQrCode,
      });
      if (row) return documentAnswer(row);
      // a registration running beside this one got there first
      return duplicateAnswer((await findIrpDocument(db, irn))!);
    });

    app.get<{ Params: { irn: string } }>(
      '/eicore/v1.03/Invoice/irn/:irn',
      { ...hidden, ...signedIn },
      async (request) => {
        const row = await findIrpDocument(db, request.params.irn);
        return row ? documentAnswer(row) : refusal([irpError('irnNotFound')]);
      },
    );

    const cancelOptions = { ...signedIn, schema: { hide: true, body: CancelBodySchema } };
    app.post('/eicore/v1.03/Invoice/Cancel', cancelOptions, async (request) => {
      const { Irn, CnlRsn, CnlRem } = request.body;
      const row = await findIrpDocument(db, Irn);
      if (!row) return refusal([irpError('irnNotFound')]);
      if (row.status !== 'ACT') return cancelledAlready();
      const now = clock.now();
      if (now.getTime() - row.ackDate.getTime() > CANCEL_WINDOW_MS) {
        return refusal([irpError('cancelLate')]);
      }
      const cancelled = await cancelIrpDocument(db, Irn, {
        at: now,
        reason: CnlRsn,
        remark: CnlRem,
      });
      if (!cancelled) return cancelledAlready();
      return success({ Irn, CancelDate: irpTime(now) });
    });

    // the public key, for whoever verifies a signed QR code or invoice
    app.get('/keys', hidden, async () => signer.keys);
  };
}
