import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import * as contract from './index';
import {
  DATE_TIME_RANGE_MESSAGE,
  JSON_MAX_DEPTH,
  TEXT_MESSAGE,
  dateTime,
  isRealDateTime,
  jsonValueProblem,
  text,
} from './primitives';

const UUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const WHEN = '2026-06-01T10:00:00.000Z';

/** A valid example of every schema a client's input is checked with. */
const VALID: Record<string, unknown> = {
  LoginRequestSchema: {
    email: 'a@b.co',
    mobile: '9876543210',
    gstNo: '27AAPFU0939F1ZV',
    tally_serialno: '712345678',
    password: 'Demo@12345',
    rememberMe: true,
  },
  Verify2faRequestSchema: { tempToken: 'temp', verificationCode: '123456' },
  ResendVerificationRequestSchema: { tempToken: 'temp' },
  CodeMailStatusRequestSchema: { tempToken: 'temp' },
  ForgotPasswordRequestSchema: { email: 'a@b.co' },
  ResetPasswordRequestSchema: { token: 'reset', newPassword: 'Fresh@2026' },
  ResetPasswordFormSchema: { newPassword: 'Fresh@2026', confirmPassword: 'Fresh@2026' },
  ChangePasswordRequestSchema: { currentPassword: 'Old@2026', password: 'Fresh@2026' },
  ChangePasswordFormSchema: {
    currentPassword: 'Old@2026',
    newPassword: 'Fresh@2026',
    confirmPassword: 'Fresh@2026',
  },
  IdParamsSchema: { id: UUID },
  UserIdParamsSchema: { userId: UUID },
  ActivityFeedQuerySchema: { cursor: 'abc', limit: '5', type: 'order' },
  MarkNotificationsSeenRequestSchema: { upTo: WHEN },
  NomineeRequestSchema: { name: 'Asha Rao', email: 'asha@b.co', relation: 'Spouse' },
  PrivacyNoticeReadRequestSchema: { version: '2026-12-02' },
  CorrectionRequestSchema: { field: 'gstNo', value: '27AAPFU0939F1ZV', reason: 'Registered anew' },
  GrievanceRequestSchema: {
    topic: 'My personal data is wrong',
    message: 'My company name is spelt wrong on my invoices.',
  },
  ConsentListQuerySchema: { page: '1', limit: '10', userId: UUID, consentStatus: 'Pending' },
  ConsentStatusRequestSchema: { consentId: 'sbk-intent-1' },
  PartnerConsentRequestSchema: {
    customerEmail: 'a@b.co',
    permissions: ['ReadBalances'],
    expirationDateTime: WHEN,
    netBankingUserId: 'nb-user',
    document: { fileName: 'consent.pdf', contentBase64: 'JVBERi0=' },
    requestId: 'req-1',
  },
  PartnerConsentParamsSchema: { consentId: 'sbk-intent-1' },
  PartnerTransactionsQuerySchema: { fromBookingDateTime: WHEN, toBookingDateTime: WHEN },
  CreateOrderRequestSchema: { planId: UUID, amount: 6148.77 },
  DashboardCountersQuerySchema: { userId: UUID },
  OrderHistoryQuerySchema: { limit: '20', cursor: 'MjAyNi0wNi0wMVQxMDowMDowMC4xMjM0NTZafA' },
  SignedLinkQuerySchema: { expires: '1780000000', sub: UUID, sig: 'abc' },
  StartAutoRenewalRequestSchema: { planId: UUID },
  PluginDownloadQuerySchema: { expires: '1780000000', sub: UUID, sig: 'abc' },
  CreatePaymentRequestSchema: {
    order_id: UUID,
    amount: 6148.77,
    customer_name: 'Acme',
    customer_email: 'a@b.co',
    customer_phone: '9876543210',
    planType: 'Single',
  },
  PaymentCallbackQuerySchema: {
    razorpay_payment_id: 'pay_1',
    razorpay_payment_link_id: 'plink_1',
    razorpay_payment_link_reference_id: UUID,
    razorpay_payment_link_status: 'paid',
    razorpay_signature: 'abc',
  },
  BillingDetailsRequestSchema: {
    gstin: '29AAGCL1234M1ZA',
    addressLine1: '4th Floor, Prestige Tech Park',
    addressLine2: 'Outer Ring Road',
    city: 'Bengaluru',
    stateCode: '29',
    pin: '560103',
  },
  InvoiceListQuerySchema: { limit: '20', cursor: 'abc' },
  SessionParamsSchema: { id: UUID },
  SignInHistoryQuerySchema: { cursor: '42', limit: '20' },
  EndSessionByLinkRequestSchema: { token: 'end-link-token' },
  EnableTwoFactorRequestSchema: { password: 'Demo@12345', code: '123456' },
  DisableTwoFactorRequestSchema: { password: 'Demo@12345', code: 'abcde-fghij' },
  VerifyRecoveryCodeRequestSchema: { tempToken: 'temp', recoveryCode: 'abcde-fghij' },
  PasskeyOptionsRequestSchema: { password: 'Demo@12345' },
  AddPasskeyRequestSchema: {
    name: 'Work laptop',
    credential: {
      id: 'cred_1',
      rawId: 'cred_1',
      type: 'public-key',
      response: { clientDataJSON: 'eyJ0', attestationObject: 'o2Nm', transports: ['internal'] },
      clientExtensionResults: {},
    },
  },
  RenamePasskeyRequestSchema: { name: 'Phone' },
  RemovePasskeyRequestSchema: { password: 'Demo@12345' },
  PasskeySignInOptionsRequestSchema: { tempToken: 'temp' },
  VerifyPasskeyRequestSchema: {
    tempToken: 'temp',
    credential: {
      id: 'cred_1',
      rawId: 'cred_1',
      type: 'public-key',
      response: { clientDataJSON: 'eyJ0', authenticatorData: 'SZYN', signature: 'MEUC' },
      clientExtensionResults: {},
    },
  },
  ConsentHistoryQuerySchema: { page: '1', limit: '10', userId: UUID },
  ExportLinkRequestSchema: { kind: 'orders', range: { from: '2026-04-01', to: '2027-03-31' } },
  ExportDownloadParamsSchema: { kind: 'orders', from: '2026-04-01', to: '2027-03-31' },
  NotificationPreferencesRequestSchema: { reminders: true, consentChanges: false },
  EmailChangeCodeRequestSchema: { newEmail: 'new@b.co', password: 'Demo@12345' },
  EmailChangeRequestSchema: { code: '123456' },
  CloseAccountRequestSchema: { password: 'Demo@12345', code: '123456' },
  DataExportDownloadParamsSchema: { exportId: UUID },
  PaymentWebhookHeadersSchema: {
    'x-razorpay-signature': 'abc',
    'x-razorpay-event-id': 'evt_1',
  },
  PaymentWebhookBodySchema: {
    event: 'payment_link.paid',
    payload: {
      payment_link: {
        entity: { id: 'plink_1', reference_id: UUID, status: 'paid', amount_paid: 100 },
      },
      payment: {
        entity: { id: 'pay_1', status: 'captured', notes: { order_id: UUID }, amount_refunded: 0 },
      },
      refund: { entity: { id: 'rfnd_1', payment_id: 'pay_1', amount: 100 } },
    },
  },
};

const inputSchemas = Object.entries(contract).filter(([name]) =>
  /(Request|Query|Params|Form|Body|Headers)Schema$/.test(name),
) as [string, ZodType][];

/** Every path to a string inside a value, and a copy with that string replaced. */
function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) =>
      stringLeaves(child, [...path, Array.isArray(value) ? Number(key) : key]),
    );
  }
  return [];
}

function replaced(value: unknown, path: (string | number)[], by: (old: string) => string): unknown {
  if (path.length === 0) return by(value as string);
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = replaced(copy[head!], rest, by);
  return copy;
}

/** Input schemas that take no text at all (switches only). */
const WITHOUT_TEXT = new Set(['NotificationPreferencesRequestSchema']);

const UNSAFE = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff'];

describe('the request schemas of the contract', () => {
  it('each have a valid example here, which they accept', () => {
    expect(inputSchemas.map(([name]) => name).sort()).toEqual(Object.keys(VALID).sort());
    for (const [name, schema] of inputSchemas) {
      expect(schema.safeParse(VALID[name]).error, name).toBeUndefined();
    }
  });

  it('refuse a control character or a lone surrogate anywhere in any text field', () => {
    for (const [name, schema] of inputSchemas) {
      const leaves = stringLeaves(VALID[name]);
      if (WITHOUT_TEXT.has(name)) expect(leaves, name).toEqual([]);
      else expect(leaves.length, name).toBeGreaterThan(0);
      for (const path of leaves) {
        for (const bad of UNSAFE) {
          for (const place of [
            (s: string) => bad + s,
            (s: string) => s.slice(0, 1) + bad + s.slice(1),
            (s: string) => s + bad,
          ]) {
            const input = replaced(VALID[name], path, place);
            expect(
              schema.safeParse(input).success,
              `${name} ${path.join('.')} ${escape(bad)}`,
            ).toBe(false);
          }
        }
      }
    }
  });

  it('still answer the messages of the spec, and name control characters as such', () => {
    const login = contract.LoginRequestSchema;
    const first = (input: unknown) => login.safeParse(input).error?.issues[0]?.message;
    const valid = VALID.LoginRequestSchema as Record<string, unknown>;
    expect(first({ ...valid, email: '' })).toBe('Email is required');
    expect(first({ ...valid, email: 'a@b' })).toBe('Invalid email address');
    expect(first({ ...valid, mobile: ' ' })).toBe('Mobile number is required');
    expect(first({ ...valid, password: undefined })).toBe('Password is required');
    expect(first({ ...valid, email: 'a\u0000@b.co' })).toBe(TEXT_MESSAGE);
    const reset = contract.ResetPasswordFormSchema.safeParse({
      newPassword: 'abc',
      confirmPassword: '',
    });
    expect(reset.error?.issues.map((i) => i.message)).toEqual([
      'Password must be at least 6 characters',
      'Please confirm your password',
      'Passwords do not match',
    ]);
  });
});

describe('text()', () => {
  it('takes any printable text, emoji and accents included', () => {
    for (const ok of ['', 'Acme Pvt. Ltd.', 'naïve café', '€ 100', '😀 ok', 'ऑर्डर']) {
      expect(text().safeParse(ok).success, ok).toBe(true);
    }
  });

  it('refuses tabs and line breaks too: no request field is multi-line', () => {
    expect(text().safeParse('a\tb').success).toBe(false);
    expect(text().safeParse('a\nb').success).toBe(false);
  });
});

describe('dateTime()', () => {
  const schema = dateTime();

  it('takes real dates with Z or an offset', () => {
    for (const ok of [
      WHEN,
      '2024-02-29T23:59:59Z',
      '1970-01-01T00:00:00Z',
      '9999-12-31T00:00:00+05:30',
    ]) {
      expect(schema.safeParse(ok).success, ok).toBe(true);
      expect(isRealDateTime(ok)).toBe(true);
    }
  });

  it('refuses impossible dates and times', () => {
    for (const bad of [
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-13-45T99:99:99.999999Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:00:00+99:99',
      '2024-01-01',
      'yesterday',
    ]) {
      expect(schema.safeParse(bad).success, bad).toBe(false);
      expect(isRealDateTime(bad)).toBe(false);
    }
  });

  it('refuses years outside 1970 to 9999, with a message that says so', () => {
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:00:00+05:30',
      '9999-12-31T23:00:00-05:00',
    ]) {
      const result = schema.safeParse(bad);
      expect(result.error?.issues[0]?.message, bad).toBe(DATE_TIME_RANGE_MESSAGE);
    }
  });
});

describe('jsonValueProblem()', () => {
  it('finds nothing wrong with an ordinary event', () => {
    expect(jsonValueProblem(VALID.PaymentWebhookBodySchema)).toBeNull();
    expect(jsonValueProblem(null)).toBeNull();
  });

  it('finds a NUL or a lone surrogate in a key or a value at any depth', () => {
    expect(jsonValueProblem({ a: [{ b: 'x\u0000' }] })).toMatch(/text value/);
    expect(jsonValueProblem({ a: { 'k\ud800': 1 } })).toMatch(/key/);
  });

  it('refuses a nesting deeper than the limit without exhausting the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(jsonValueProblem(deep)).toBe(`must be nested at most ${JSON_MAX_DEPTH} levels deep`);
    let shallow: unknown = 'leaf';
    for (let i = 0; i < JSON_MAX_DEPTH; i += 1) shallow = { a: shallow };
    expect(jsonValueProblem(shallow)).toBeNull();
  });
});

describe('PaymentWebhookBodySchema', () => {
  it('refuses a body that is not an object, and ids or amounts of the wrong type', () => {
    const entityOf = (payment: unknown) => ({
      event: 'payment_link.paid',
      payload: { payment: { entity: payment } },
    });
    for (const bad of [
      null,
      [],
      'payment_link.paid',
      42,
      { event: 7 },
      { event: 'payment_link.paid', payload: [] },
      entityOf({ id: { evil: 1 } }),
      entityOf({ id: ['pay_1'] }),
      entityOf({ id: 'pay_1', notes: { order_id: 5 } }),
      { event: 'refund.processed', payload: { refund: { entity: { amount: '100' } } } },
      entityOf({ id: 'pay_1', amount_refunded: -1 }),
      { event: 'payment_link.paid', payload: { payment_link: { entity: { amount_paid: 1.5 } } } },
    ]) {
      expect(contract.PaymentWebhookBodySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(
        false,
      );
    }
  });

  it('refuses what it cannot store in a field it does not read: NUL, or a hostile depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i += 1) deep = { a: deep };
    for (const bad of [
      { event: 'payment.failed', extra: { note: 'a\u0000b' } },
      { event: 'payment.failed', extra: { 'k\ud800': 1 } },
      { event: 'payment.failed', extra: deep },
    ]) {
      expect(contract.PaymentWebhookBodySchema.safeParse(bad).success).toBe(false);
    }
  });

  it('keeps the fields it does not read, and notes sent as an empty array', () => {
    const body = {
      entity: 'event',
      event: 'payment.failed',
      payload: { payment: { entity: { id: 'pay_1', notes: [], extra: { deep: true } } } },
    };
    expect(contract.PaymentWebhookBodySchema.parse(body)).toEqual(body);
  });
});
