import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { auditOf, byCustomer } from '../../test/audit';
import { login, loginBody } from '../../test/auth';
import { authHeaders, createCustomer } from '../../test/customers';
import { CliError } from '../../cli/command';
import { correctionCommands } from '../../cli/corrections';
import { printedBy } from '../../cli/test-support';
import { customers } from '../users/schema';
import { correctionRequests } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { OPERATOR_EMAIL: 'ops@ledgerline.example.in' } });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const ask = (headers: Headers, payload: object) =>
  t.app.inject({ method: 'POST', url: privacyPaths.corrections, headers, payload });
const list = async (headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: privacyPaths.corrections, headers })).json();
const NEW_GSTIN = '29AAPFU0939F1ZR';

async function admin(name: string, ...args: string[]) {
  const { out } = await printedBy(() => correctionCommands[name]!.run(args, t.deps));
  return out;
}

const customerRow = async (id: string) =>
  (await t.deps.db.select().from(customers).where(eq(customers.id, id)))[0]!;

describe('requests to correct a detail the customer signs in with', () => {
  it('records a request with a reference, tells the customer and the operator, and lists it', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await list(headers)).data).toEqual({ corrections: [] });

    const res = await ask(headers, {
      field: 'gstNo',
      value: ' 29aapfu0939f1zr ',
      reason: 'Moved to Bengaluru',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(privacyMessages.correctionRecorded);
    const { correction } = res.json().data;
    expect(correction).toEqual({
      reference: expect.stringMatching(/^COR-[0-9A-HJKMNP-TV-Z]{8}$/),
      field: 'gstNo',
      currentValue: customer.gstNo,
      requestedValue: NEW_GSTIN,
      reason: 'Moved to Bengaluru',
      submittedAt: t.clock.now().toISOString(),
      respondBy: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(),
      status: 'Waiting',
      decidedAt: null,
      note: null,
    });
    expect((await list(headers)).data.corrections).toEqual([correction]);
    // nothing changes until the operator decides
    expect((await customerRow(customer.id)).gstNo).toBe(customer.gstNo);

    const mails = await t.outbox();
    const ack = mails.find((m) => m.to === customer.email)!;
    expect(ack.subject).toBe(`Your request ${correction.reference} is recorded`);
    expect(ack.text).toContain(`Correct value: ${NEW_GSTIN}`);
    const ops = mails.find((m) => m.to === 'ops@ledgerline.example.in')!;
    expect(ops.subject).toBe(`Correction ${correction.reference} to decide`);
    expect(ops.text).toContain(`Now: ${customer.gstNo}`);
    expect(ops.text).toContain('Moved to Bengaluru');
    expect(ops.text).toContain(`corrections:decide --reference ${correction.reference} --correct`);
    expect(await auditOf(t, customer.id)).toContainEqual(
      byCustomer(customer.id, 'correction_requested'),
    );
  });

  it('is corrected by the operator once: the customer signs in with the new value and is mailed it', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { correction } = (
      await ask(headers, { field: 'mobile', value: '+91 99887 76655' })
    ).json().data;
    expect(correction.requestedValue).toBe('+919988776655');
    expect((await admin('corrections:list')).join('\n')).toContain(
      `${correction.reference}  due ${correction.respondBy}  Mobile number: ${customer.mobile} -> +919988776655`,
    );

    t.clock.advance(60_000);
    expect(
      await admin(
        'corrections:decide',
        '--reference',
        correction.reference.toLowerCase(),
        '--correct',
      ),
    ).toEqual([`${correction.reference} corrected; the customer is mailed the outcome.`]);
    expect((await customerRow(customer.id)).mobile).toBe('+919988776655');
    expect((await list(headers)).data.corrections[0]).toMatchObject({
      status: 'Corrected',
      decidedAt: t.clock.now().toISOString(),
    });
    const mail = (await t.outbox()).find((m) => m.subject === 'Your mobile number is corrected');
    expect(mail?.to).toBe(customer.email);
    expect(mail?.text).toContain('Sign in with it from now on.');
    // the new number signs in; the old one no longer does
    expect(
      (await login(t, loginBody(customer, { mobile: '+919988776655' }), '198.51.100.40'))
        .statusCode,
    ).toBe(200);
    expect((await login(t, loginBody(customer), '198.51.100.41')).statusCode).toBe(401);

    await expect(
      admin('corrections:decide', '--reference', correction.reference, '--correct'),
    ).rejects.toThrow(new CliError(`${correction.reference} is decided already`));
    await expect(
      admin('corrections:decide', '--reference', 'COR-NONE', '--correct'),
    ).rejects.toThrow(new CliError('no correction request COR-NONE'));
    expect(await admin('corrections:list')).not.toContain(correction.reference);
  });

  it('is declined with a note that says why, and the customer may ask again', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { correction } = (
      await ask(headers, { field: 'companyName', value: 'Acme Traders LLP' })
    ).json().data;
    await expect(
      admin('corrections:decide', '--reference', correction.reference, '--decline'),
    ).rejects.toThrow(new CliError('say why it is declined, with --note'));
    await expect(
      admin('corrections:decide', '--reference', correction.reference, '--correct', '--decline'),
    ).rejects.toThrow(new CliError('give exactly one of --correct and --decline'));
    await admin(
      'corrections:decide',
      '--reference',
      correction.reference,
      '--decline',
      '--note',
      'Send the LLP registration certificate first.',
    );
    expect((await customerRow(customer.id)).companyName).toBe(customer.companyName);
    expect((await list(headers)).data.corrections[0]).toMatchObject({
      status: 'Declined',
      note: 'Send the LLP registration certificate first.',
    });
    const mail = (await t.outbox()).find(
      (m) => m.subject === `Your request ${correction.reference} is declined`,
    );
    expect(mail?.text).toContain('Send the LLP registration certificate first.');
    // asked again and left past its due date, it is marked overdue in the operator's list
    const again = (await ask(headers, { field: 'companyName', value: 'Acme Traders LLP' })).json()
      .data.correction;
    t.clock.advance(31 * 86_400_000);
    expect((await admin('corrections:list')).join('\n')).toContain(
      `${again.reference}  due ${again.respondBy}  OVERDUE`,
    );
  });

  it('refuses bad input with a 400 and records nothing; needs a signed-in customer', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (const [body, message] of [
      [{ field: 'email', value: 'x@y.in' }, 'Choose what to correct'],
      [{ field: 'gstNo', value: '27AAPFU0939F1ZX' }, 'check digit'],
      [{ field: 'gstNo', value: 'ABC' }, 'Enter a 15-character GSTIN'],
      [{ field: 'mobile', value: '12345' }, 'Enter a 10-digit Indian mobile number'],
      [{ field: 'companyName', value: ' A ' }, 'Enter the correct company name'],
      [{ field: 'companyName', value: 'x'.repeat(201) }, 'at most 200 characters'],
      [{ field: 'companyName', value: 'Fine Name', reason: 'x'.repeat(501) }, 'at most 500'],
      [{ field: 'companyName', value: 'Fine Name', customerId: customer.id }, 'customerId'],
      [{ field: 'gstNo', value: customer.gstNo.toLowerCase() }, 'This is already your gstin.'],
      [
        { field: 'companyName', value: ` ${customer.companyName} ` },
        'This is already your company name.',
      ],
    ] as const) {
      const res = await ask(headers, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(
      await t.deps.db
        .select()
        .from(correctionRequests)
        .where(eq(correctionRequests.customerId, customer.id)),
    ).toEqual([]);
    expect((await ask({}, { field: 'companyName', value: 'Fine Name' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: privacyPaths.corrections })).statusCode).toBe(
      401,
    );
  });

  it('keeps one waiting request per detail, however many are sent at once, and five a day', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        ask(headers, { field: 'companyName', value: `Name ${i}` }),
      ),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(99);
    const { reference } = (await list(headers)).data.corrections[0];
    expect(answers.find((res) => res.statusCode === 409)!.json().message).toBe(
      `A request to correct your company name is already waiting: ${reference}.`,
    );
    expect((await list(headers)).data.corrections).toHaveLength(1);

    for (const [field, value] of [
      ['mobile', '9123456780'],
      ['gstNo', NEW_GSTIN],
    ] as const) {
      expect((await ask(headers, { field, value })).statusCode).toBe(201);
    }
    // the mobile and GSTIN requests declined and asked again: the fourth and fifth of the day
    const waitingFor = async (field: string) =>
      (await list(headers)).data.corrections.find(
        (row: { field: string; status: string }) => row.field === field && row.status === 'Waiting',
      ).reference as string;
    for (const [field, value] of [
      ['mobile', '9123456780'],
      ['gstNo', NEW_GSTIN],
    ] as const) {
      await admin(
        'corrections:decide',
        '--reference',
        await waitingFor(field),
        '--decline',
        '--note',
        'No.',
      );
      expect((await ask(headers, { field, value })).statusCode).toBe(201);
    }
    await admin(
      'corrections:decide',
      '--reference',
      await waitingFor('mobile'),
      '--decline',
      '--note',
      'No.',
    );
    const sixth = await ask(headers, { field: 'mobile', value: '9123456781' });
    expect(sixth.statusCode).toBe(429);
  });
});
