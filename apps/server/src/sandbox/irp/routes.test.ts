import { eq } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CANCEL_REASONS,
  EInvoiceRefusal,
  createEInvoiceClient,
  type EInvoiceSettings,
} from '../../adapters/e-invoice';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { createTestApp, type TestApp } from '../../test/app';
import { documentDay, irnOf, irpTime } from './rules';
import { sandboxIrpDocuments } from './schema';
import { SANDBOX_IRP_PREFIX } from './settings';
import { validInvoice } from '../../test/inv-01';
import { SANDBOX_IRP_ISSUER, qrPayload } from './signing';

/** 15:30 on 1 June 2026 in India, where the test clock starts. */
const START = new Date('2026-06-01T10:00:00.000Z');
const SUPPLIER = '29AAGCL1234M1ZA';
const BUYER = '27AAPFU0939F1ZV';
/** The IRP gives a token for six hours. */
const TOKEN_HOURS = 6;

let documents = 0;
/** A valid invoice, numbered anew each time. */
const invoice = () => validInvoice(`INV/2026/${(documents += 1)}`);
const irnOfInvoice = (document: ReturnType<typeof invoice>) =>
  irnOf(document, documentDay(document.DocDtls.Dt)!);

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { E_INVOICING: 'on' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = address + SANDBOX_IRP_PREFIX;
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(START));

const settings = (): EInvoiceSettings => ({ baseUrl, ...t.deps.eInvoicing!.sandboxIrp! });
const newClient = (changes: Partial<EInvoiceSettings> = {}) =>
  createEInvoiceClient({ ...settings(), ...changes }, t.clock);

/** The refusal a call ends in, to read its codes and messages. */
async function refusalOf(call: Promise<unknown>): Promise<EInvoiceRefusal> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EInvoiceRefusal);
  return error as EInvoiceRefusal;
}
const codes = (refusal: EInvoiceRefusal) => refusal.errors.map((error) => error.code);

/** A call over HTTP as the client makes it, to read what the client does not expose. */
async function raw(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: string } = {},
) {
  const { clientId, clientSecret, username, gstin } = settings();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      client_id: clientId,
      client_secret: clientSecret,
      gstin,
      user_name: username,
      authtoken: options.token ?? (await newClient().authenticate()),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('signing in at the sandbox IRP', () => {
  it('refuses a wrong client secret with 1010 and a wrong password with 1008', async () => {
    expect(codes(await refusalOf(newClient({ clientSecret: 'wrong' }).authenticate()))).toEqual([
      '1010',
    ]);
    expect(codes(await refusalOf(newClient({ gstin: BUYER }).authenticate()))).toEqual(['1010']);
    expect(codes(await refusalOf(newClient({ password: 'wrong' }).authenticate()))).toEqual([
      '1008',
    ]);
    expect(codes(await refusalOf(newClient({ username: 'someone' }).authenticate()))).toEqual([
      '1008',
    ]);
  });

  it('refuses a call with no token, or one past its six hours, as an invalid token', async () => {
    const unknown = await raw('GET', `/eicore/v1.03/Invoice/irn/${'a'.repeat(64)}`, {
      token: 'made-up',
    });
    expect(unknown.body).toMatchObject({ Status: 0, ErrorDetails: [{ ErrorCode: '1005' }] });

    const token = await newClient().authenticate();
    t.clock.advance(TOKEN_HOURS * HOUR_MS + 1_000);
    const expired = await raw('GET', `/eicore/v1.03/Invoice/irn/${'a'.repeat(64)}`, { token });
    expect(expired.body).toMatchObject({ Status: 0, ErrorDetails: [{ ErrorCode: '1005' }] });
  });

  it('lets the client sign in again on its own once the token ends', async () => {
    const client = newClient();
    const { irn } = await client.generate(invoice());
    const first = await client.authenticate();
    t.clock.advance(TOKEN_HOURS * HOUR_MS + 60_000);
    await expect(client.getByIrn(irn)).resolves.toMatchObject({ irn });
    const second = await client.authenticate();
    expect(second).not.toBe(first);
    const old = await raw('GET', `/eicore/v1.03/Invoice/irn/${irn}`, { token: first });
    expect(old.body).toMatchObject({ ErrorDetails: [{ ErrorCode: '1005' }] });
  });
});

describe('registering a document', () => {
  it('answers the IRN of the document, a 15-digit AckNo and a QR code signed by its key', async () => {
    const document = invoice();
    const registered = await newClient().generate(document);
    const irn = irnOfInvoice(document);
    expect(registered.irn).toBe(irn);
    expect(registered.ackNo).toMatch(/^[1-9]\d{14}$/);
    expect(registered.ackDate).toEqual(START);

    const keys = (await (await fetch(`${baseUrl}/keys`)).json()) as JSONWebKeySet;
    const jwks = createLocalJWKSet(keys);
    const qr = await jwtVerify(registered.signedQrCode, jwks, { issuer: SANDBOX_IRP_ISSUER });
    expect(JSON.parse(qr.payload.data as string)).toEqual(qrPayload(document, irn, irpTime(START)));
    const signed = await jwtVerify(registered.signedInvoice, jwks);
    expect(JSON.parse(signed.payload.data as string)).toMatchObject({
      DocDtls: document.DocDtls,
      Irn: irn,
      AckNo: Number(registered.ackNo),
      AckDt: '2026-06-01 15:30:00',
    });

    await expect(newClient().getByIrn(irn)).resolves.toEqual(registered);
    const [row] = await t.deps.db
      .select()
      .from(sandboxIrpDocuments)
      .where(eq(sandboxIrpDocuments.irn, irn));
    expect(row).toMatchObject({ supplierGstin: SUPPLIER, financialYear: '2026-27', status: 'ACT' });
  });

  it("is reached in memory by the portal's own client", async () => {
    const document = invoice();
    const registered = await t.deps.eInvoicing!.client.generate(document);
    expect(registered.irn).toBe(irnOfInvoice(document));
    await expect(newClient().getByIrn(registered.irn)).resolves.toEqual(registered);
  });

  it('refuses the same document again as a duplicate, naming the IRN it has', async () => {
    const document = invoice();
    const client = newClient();
    const first = await client.generate(document);
    // the IRP takes document numbers without regard to case
    const again = {
      ...document,
      DocDtls: { ...document.DocDtls, No: document.DocDtls.No.toLowerCase() },
    };
    expect(codes(await refusalOf(client.generate(again)))).toEqual(['2150']);

    const answer = await raw('POST', '/eicore/v1.03/Invoice', { body: JSON.stringify(document) });
    expect(answer.body).toEqual({
      Status: 0,
      ErrorDetails: [{ ErrorCode: '2150', ErrorMessage: 'Duplicate IRN' }],
      InfoDtls: [
        {
          InfCd: 'DUPIRN',
          Desc: { AckNo: Number(first.ackNo), AckDt: '2026-06-01 15:30:00', Irn: first.irn },
        },
      ],
    });
  });

  it('registers a document sent 20 times at once exactly once', async () => {
    const document = invoice();
    const client = newClient();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => client.generate(document)),
    );
    const registered = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
    );
    expect(registered).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(EInvoiceRefusal);
      expect(codes(reason as EInvoiceRefusal)).toEqual(['2150']);
    }
    const rows = await t.deps.db
      .select()
      .from(sandboxIrpDocuments)
      .where(eq(sandboxIrpDocuments.irn, irnOfInvoice(document)));
    expect(rows).toHaveLength(1);
  });

  it('refuses a document not as per INV-01 with 2140, naming the field', async () => {
    const document = invoice();
    document.DocDtls.Dt = '2026-06-01';
    const refusal = await refusalOf(newClient().generate(document));
    expect(codes(refusal)).toEqual(['2140']);
    expect(refusal.errors[0]!.message).toMatch(/DocDtls\.Dt must match pattern/);
  });

  it('refuses totals that do not add up', async () => {
    const taxable = invoice();
    // 1,500 taxable in its lines
    taxable.ValDtls.AssVal = 1400;
    taxable.ValDtls.TotInvVal = 1670;
    expect(codes(await refusalOf(newClient().generate(taxable)))).toEqual(['2182']);
    const total = invoice();
    total.ValDtls.TotInvVal = 1800;
    expect(codes(await refusalOf(newClient().generate(total)))).toEqual(['2189']);
  });

  it('refuses a date in the future, and one past the 30-day window', async () => {
    const future = invoice();
    future.DocDtls.Dt = '02/06/2026';
    expect(codes(await refusalOf(newClient().generate(future)))).toEqual(['2163']);
    const late = invoice();
    late.DocDtls.Dt = '02/05/2026';
    const refusal = await refusalOf(newClient().generate(late));
    expect(codes(refusal)).toEqual(['2140']);
    expect(refusal.errors[0]!.message).toMatch(/older than 30 days, past reporting/);
  });

  it("refuses a document of another supplier than the API user's", async () => {
    const document = invoice();
    document.SellerDtls.Gstin = BUYER;
    document.BuyerDtls.Gstin = SUPPLIER;
    const refusal = await refusalOf(newClient().generate(document));
    expect(codes(refusal)).toEqual(['2140']);
    expect(refusal.errors[0]!.message).toMatch(/SellerDtls\.Gstin .* not the API user's GSTIN/);
  });

  it('refuses malformed JSON and a body that is no document, never failing', async () => {
    const bodies = ['{"Version":', '[1,2]', '"invoice"', 'null'];
    for (const body of bodies) {
      const answer = await raw('POST', '/eicore/v1.03/Invoice', { body });
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toMatchObject({ Status: 0, ErrorDetails: [{ ErrorCode: '2140' }] });
    }
    const auth = await raw('POST', '/eivital/v1.04/auth', { body: '{' });
    expect(auth.status).toBeLessThan(500);
    expect(auth.body).toMatchObject({ Status: 0, ErrorDetails: [{ ErrorCode: '2140' }] });
  });
});

describe('reading and cancelling a document', () => {
  it('refuses an IRN it never registered with 2148', async () => {
    const client = newClient();
    expect(codes(await refusalOf(client.getByIrn('b'.repeat(64))))).toEqual(['2148']);
    const cancel = client.cancel('b'.repeat(64), CANCEL_REASONS.other, 'not ours');
    expect(codes(await refusalOf(cancel))).toEqual(['2148']);
  });

  it('cancels within 24 hours, and shows the document cancelled after', async () => {
    const client = newClient();
    const { irn } = await client.generate(invoice());
    t.clock.advance(DAY_MS - 60_000);
    await expect(
      client.cancel(irn, CANCEL_REASONS.dataEntryMistake, 'wrong rate'),
    ).resolves.toEqual({ irn, cancelDate: new Date(START.getTime() + DAY_MS - 60_000) });
    const read = await raw('GET', `/eicore/v1.03/Invoice/irn/${irn}`);
    expect(read.body).toMatchObject({ Status: 1, Data: { Irn: irn, Status: 'CNL' } });
    const [row] = await t.deps.db
      .select()
      .from(sandboxIrpDocuments)
      .where(eq(sandboxIrpDocuments.irn, irn));
    expect(row).toMatchObject({ cancelReason: '2', cancelRemark: 'wrong rate' });

    const again = await refusalOf(client.cancel(irn, CANCEL_REASONS.other, 'twice'));
    expect(codes(again)).toEqual(['2148']);
    expect(again.errors[0]!.message).toMatch(/cancelled already/);
  });

  it('refuses a cancellation after 24 hours with 2270', async () => {
    const client = newClient();
    const { irn } = await client.generate(invoice());
    t.clock.advance(DAY_MS + 1_000);
    expect(codes(await refusalOf(client.cancel(irn, CANCEL_REASONS.other, 'late')))).toEqual([
      '2270',
    ]);
    const read = await raw('GET', `/eicore/v1.03/Invoice/irn/${irn}`);
    expect(read.body).toMatchObject({ Data: { Status: 'ACT' } });
  });

  it('refuses a cancellation with a reason the IRP does not number, naming the field', async () => {
    const { irn } = await newClient().generate(invoice());
    const answer = await raw('POST', '/eicore/v1.03/Invoice/Cancel', {
      body: JSON.stringify({ Irn: irn, CnlRsn: '5', CnlRem: 'x' }),
    });
    expect(answer.body).toMatchObject({
      Status: 0,
      ErrorDetails: [{ ErrorCode: '2140', ErrorMessage: expect.stringMatching(/CnlRsn/) }],
    });
  });
});
