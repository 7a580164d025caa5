import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { auditOf, byCustomer } from '../../test/audit';
import { authHeaders, createCustomer } from '../../test/customers';
import { CliError } from '../../cli/command';
import { grievanceCommands } from '../../cli/grievances';
import { printedBy } from '../../cli/test-support';
import { grievanceSubject } from './mail';
import { grievances } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      GRIEVANCE_OFFICER_NAME: 'Meera Iyer',
      GRIEVANCE_OFFICER_EMAIL: 'grievance@ledgerline.example.in',
      GRIEVANCE_OFFICER_PHONE: '+91 80 4000 1234',
      GRIEVANCE_RESPONSE_DAYS: '15',
      OPERATOR_EMAIL: 'ops@ledgerline.example.in',
    },
  });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const raise = (headers: Headers, payload: object) =>
  t.app.inject({ method: 'POST', url: privacyPaths.grievances, headers, payload });
const list = async (headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: privacyPaths.grievances, headers })).json();
const GRIEVANCE = {
  topic: 'My personal data is wrong',
  message: 'My company name is spelt wrong on my invoices.',
};

/** Runs an operator command with the test app's own deps: what it printed. */
async function admin(name: string, ...args: string[]) {
  const { out } = await printedBy(() => grievanceCommands[name]!.run(args, t.deps));
  return out;
}

describe('grievances to the grievance officer', () => {
  it('names the configured officer, records a grievance with a reference at once, and tells both sides', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await list(headers)).data).toEqual({
      officer: {
        name: 'Meera Iyer',
        email: 'grievance@ledgerline.example.in',
        phone: '+91 80 4000 1234',
        responseDays: 15,
      },
      grievances: [],
    });

    const res = await raise(headers, { ...GRIEVANCE, message: `  ${GRIEVANCE.message} ` });
    expect(res.statusCode).toBe(201);
    const { grievance } = res.json().data;
    expect(res.json().message).toBe(privacyMessages.grievanceRecorded);
    expect(grievance).toEqual({
      reference: expect.stringMatching(/^GRV-[0-9A-HJKMNP-TV-Z]{8}$/),
      ...GRIEVANCE,
      submittedAt: t.clock.now().toISOString(),
      respondBy: new Date(t.clock.now().getTime() + 15 * 86_400_000).toISOString(),
      status: 'Open',
      answeredAt: null,
      answer: null,
    });
    expect((await list(headers)).data.grievances).toEqual([grievance]);

    const mails = await t.outbox();
    const ack = mails.find((m) => m.to === customer.email)!;
    expect(ack.subject).toBe(grievanceSubject('grievance-recorded', grievance.reference));
    expect(ack.text).toContain(`Reference: ${grievance.reference}`);
    expect(ack.text).toContain('Meera Iyer, our grievance officer, will answer it by');
    for (const to of ['grievance@ledgerline.example.in', 'ops@ledgerline.example.in']) {
      const received = mails.find((m) => m.to === to)!;
      expect(received.subject).toBe(grievanceSubject('grievance-received', grievance.reference));
      expect(received.text).toContain(GRIEVANCE.message);
      expect(received.text).toContain(`${customer.companyName} (${customer.email})`);
    }
    expect(await auditOf(t, customer.id)).toContainEqual(
      byCustomer(customer.id, 'grievance_submitted'),
    );
  });

  it('is answered by the officer through the CLI once, the customer mailed the answer', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { grievance } = (await raise(headers, GRIEVANCE)).json().data;

    const open = await admin('grievances:list');
    expect(open.join('\n')).toContain(
      `${grievance.reference}  due ${grievance.respondBy}  ${GRIEVANCE.topic}`,
    );

    const answered = await admin(
      'grievances:answer',
      '--reference',
      grievance.reference.toLowerCase(),
      '--answer',
      'We have corrected the company name on your invoices.',
    );
    expect(answered).toEqual([
      `${grievance.reference} answered; the customer is mailed the answer.`,
    ]);
    expect((await list(headers)).data.grievances[0]).toMatchObject({
      status: 'Answered',
      answeredAt: t.clock.now().toISOString(),
      answer: 'We have corrected the company name on your invoices.',
    });
    const mail = (await t.outbox()).find(
      (m) => m.subject === grievanceSubject('grievance-answered', grievance.reference),
    );
    expect(mail?.to).toBe(customer.email);
    expect(mail?.text).toContain('We have corrected the company name on your invoices.');

    await expect(
      admin('grievances:answer', '--reference', grievance.reference, '--answer', 'x'),
    ).rejects.toThrow(new CliError(`${grievance.reference} is answered already`));
    await expect(
      admin('grievances:answer', '--reference', 'GRV-NONE', '--answer', 'x'),
    ).rejects.toThrow(new CliError('no grievance GRV-NONE'));
    await expect(admin('grievances:answer', '--reference', grievance.reference)).rejects.toThrow(
      new CliError('--answer is required'),
    );
    // past its due date unanswered, a grievance is marked overdue in the officer's list
    const late = (await raise(headers, GRIEVANCE)).json().data.grievance;
    t.clock.advance(16 * 86_400_000);
    expect((await admin('grievances:list')).join('\n')).toContain(
      `${late.reference}  due ${late.respondBy}  OVERDUE`,
    );
  });

  it('refuses bad input with a 400 and records nothing; needs a signed-in customer', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (const [body, message] of [
      [{ ...GRIEVANCE, topic: 'My neighbour' }, 'Choose what it is about'],
      [{ ...GRIEVANCE, message: '  short  ' }, 'at least 10 characters'],
      [{ ...GRIEVANCE, message: 'x'.repeat(2001) }, 'at most 2,000 characters'],
      [{ ...GRIEVANCE, customerId: customer.id }, 'customerId'],
    ] as const) {
      const res = await raise(headers, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(
      await t.deps.db.select().from(grievances).where(eq(grievances.customerId, customer.id)),
    ).toEqual([]);
    expect((await raise({}, GRIEVANCE)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: privacyPaths.grievances })).statusCode).toBe(
      401,
    );
  });

  it('takes five a day, however many are sent at once, each with its own reference', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => raise(headers, GRIEVANCE)));
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(15);
    const references = (await list(headers)).data.grievances.map(
      (g: { reference: string }) => g.reference,
    );
    expect(new Set(references).size).toBe(5);
  });
});
