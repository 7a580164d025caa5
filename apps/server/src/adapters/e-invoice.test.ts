import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestClock } from '../test/clock';
import {
  CANCEL_REASONS,
  EInvoiceRefusal,
  EInvoiceUnavailable,
  createEInvoiceClient,
  type EInvoiceSettings,
} from './e-invoice';

/** One request as the scripted IRP saw it. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Answer = (seen: Seen, response: ServerResponse) => void;

const IRN = 'a'.repeat(64);
const registered = {
  Status: 1,
  Data: {
    AckNo: 112010000000310,
    AckDt: '2026-06-01 15:30:00',
    Irn: IRN,
    SignedInvoice: 'signed.invoice.jws',
    SignedQRCode: 'signed.qr.jws',
    Status: 'ACT',
    EwbNo: null,
  },
};
const authOk = (expiry = '2026-06-01 21:30:00') => ({
  Status: 1,
  Data: {
    ClientId: 'client',
    UserName: 'user',
    AuthToken: `token-${expiry}`,
    Sek: 'sek',
    TokenExpiry: expiry,
  },
});
const json = (response: ServerResponse, body: unknown, status = 200) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

let server: Server;
let baseUrl: string;
let seen: Seen[];
/** How the IRP answers anything but a sign-in. */
let answer: Answer;
let authAnswer: Answer;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const entry: Seen = {
        method: request.method!,
        path: request.url!,
        headers: request.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(entry);
      (entry.path === '/eivital/v1.04/auth' ? authAnswer : answer)(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  seen = [];
  authAnswer = (_seen, response) => json(response, authOk());
  answer = (_seen, response) => json(response, registered);
});

const settings = (): EInvoiceSettings => ({
  baseUrl,
  clientId: 'client',
  clientSecret: 'secret',
  username: 'user',
  password: 'password',
  gstin: '29AAGCL1234M1ZA',
  timeoutMs: 2_000,
});
// 10:00 UTC is 15:30 in India, six hours before the token's stated expiry
const clientAt = () => {
  const clock = createTestClock();
  return { clock, client: createEInvoiceClient(settings(), clock) };
};
const signIns = () => seen.filter((entry) => entry.path === '/eivital/v1.04/auth');

describe('the e-invoice client', () => {
  it('signs in with the IRP fields and keeps the token until shortly before it ends', async () => {
    const { clock, client } = clientAt();
    await Promise.all([client.authenticate(), client.authenticate(), client.generate({})]);
    await client.getByIrn(IRN);
    expect(signIns()).toHaveLength(1);
    const [signIn] = signIns();
    expect(signIn!.headers).toMatchObject({
      client_id: 'client',
      client_secret: 'secret',
      gstin: '29AAGCL1234M1ZA',
    });
    expect(signIn!.body).toEqual({
      UserName: 'user',
      Password: 'password',
      AppKey: null,
      ForceRefreshAccessToken: false,
    });
    const calls = seen.filter((entry) => entry !== signIn);
    for (const call of calls) {
      expect(call.headers).toMatchObject({
        authtoken: 'token-2026-06-01 21:30:00',
        user_name: 'user',
      });
    }

    clock.advance(6 * 60 * 60 * 1000 - 30_000);
    await client.getByIrn(IRN);
    expect(signIns()).toHaveLength(2);
  });

  it('answers a registered document in its own types', async () => {
    const { client } = clientAt();
    const document = { Version: '1.1', DocDtls: { Typ: 'INV', No: 'INV/1', Dt: '01/06/2026' } };
    await expect(client.generate(document)).resolves.toEqual({
      irn: IRN,
      ackNo: '112010000000310',
      ackDate: new Date('2026-06-01T10:00:00.000Z'),
      signedQrCode: 'signed.qr.jws',
      signedInvoice: 'signed.invoice.jws',
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/eicore/v1.03/Invoice',
      body: document,
    });
  });

  it('cancels with the reason and remark the IRP asks for', async () => {
    const { client } = clientAt();
    answer = (_seen, response) =>
      json(response, { Status: 1, Data: { Irn: IRN, CancelDate: '2026-06-01 16:00:00' } });
    await expect(
      client.cancel(IRN, CANCEL_REASONS.dataEntryMistake, 'wrong rate'),
    ).resolves.toEqual({ irn: IRN, cancelDate: new Date('2026-06-01T10:30:00.000Z') });
    expect(seen.at(-1)!.body).toEqual({ Irn: IRN, CnlRsn: '2', CnlRem: 'wrong rate' });
  });

  it('turns the IRP error details into a refusal that names the codes', async () => {
    const { client } = clientAt();
    answer = (_seen, response) =>
      json(response, {
        Status: 0,
        ErrorDetails: [{ ErrorCode: '2150', ErrorMessage: 'Duplicate IRN' }],
      });
    const refusal = await client.generate({}).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EInvoiceRefusal);
    expect((refusal as EInvoiceRefusal).errors).toEqual([
      { code: '2150', message: 'Duplicate IRN' },
    ]);
  });

  it('signs in again once when the IRP no longer knows the token', async () => {
    const { client } = clientAt();
    let calls = 0;
    answer = (_seen, response) =>
      (calls += 1) === 1
        ? json(response, {
            Status: 0,
            ErrorDetails: [{ ErrorCode: 1005, ErrorMessage: 'Invalid Token' }],
          })
        : json(response, registered);
    await expect(client.getByIrn(IRN)).resolves.toMatchObject({ irn: IRN });
    expect(signIns()).toHaveLength(2);
  });

  it('refuses a sign-in with wrong credentials as a refusal, not an outage', async () => {
    const { client } = clientAt();
    authAnswer = (_seen, response) =>
      json(response, {
        Status: 0,
        ErrorDetails: [{ ErrorCode: '1010', ErrorMessage: 'Invalid Client-ID/Client-Secret' }],
      });
    await expect(client.generate({})).rejects.toBeInstanceOf(EInvoiceRefusal);
  });

  const junk: [string, Answer][] = [
    ['an HTML page', (_s, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>')],
    ['JSON of another shape', (_s, r) => json(r, { ok: true })],
    ['success with no IRN', (_s, r) => json(r, { Status: 1, Data: { AckNo: 1 } })],
    [
      'a date in another format',
      (_s, r) => json(r, { ...registered, Data: { ...registered.Data, AckDt: '01/06/2026' } }),
    ],
    ['an error status with no details', (_s, r) => json(r, { Status: 0, ErrorDetails: [] })],
    [
      'a 502 carrying error details',
      (_s, r) =>
        json(r, { Status: 0, ErrorDetails: [{ ErrorCode: '2150', ErrorMessage: 'x' }] }, 502),
    ],
    ['a 503 with an empty body', (_s, r) => r.writeHead(503).end()],
    ['a dropped connection', (_s, r) => r.socket!.destroy()],
    ['a redirect', (_s, r) => r.writeHead(302, { location: 'http://example.com/' }).end()],
  ];
  it.each(junk)('classifies %s as the IRP unavailable', async (_name, junkAnswer) => {
    const { client } = clientAt();
    answer = junkAnswer;
    await expect(client.generate({})).rejects.toBeInstanceOf(EInvoiceUnavailable);
  });

  it('classifies a sign-in answered with junk as the IRP unavailable', async () => {
    const { client } = clientAt();
    authAnswer = (_s, r) => json(r, { Status: 1, Data: { AuthToken: 'x', TokenExpiry: 'soon' } });
    await expect(client.authenticate()).rejects.toBeInstanceOf(EInvoiceUnavailable);
  });

  it('classifies an IRP nobody answers at as unavailable', async () => {
    const idle = createServer(() => undefined);
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    const port = (idle.address() as AddressInfo).port;
    const client = createEInvoiceClient({
      ...settings(),
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 200,
    });
    try {
      await expect(client.authenticate()).rejects.toBeInstanceOf(EInvoiceUnavailable);
    } finally {
      idle.closeAllConnections();
      await new Promise((resolve) => idle.close(resolve));
    }
  });
});
