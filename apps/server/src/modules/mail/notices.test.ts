import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { linksOf, type ReadMail } from '../../test/mail';
import { DEVICE_COOKIE } from '../auth/browsers';
import { freshIp, latestCode, loginBody } from '../../test/auth';
import { createTestPartner, decideAtBank, requestTestConsent } from '../consents/testing';
import { buyer } from '../../test/payments';
import { receiptFileKey } from '../invoices/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Customer = Awaited<ReturnType<typeof createCustomer>>;

/**
 * Both sign-in steps from a browser that presents `device`, or, with none, keeps the device
 * cookie the password step gives it; answers the device the sign-in was made with.
 */
async function signInFrom(customer: Customer, device?: string) {
  const ip = freshIp();
  const headers = { 'user-agent': CHROME_ON_WINDOWS };
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { ...headers, ...(device ? { cookie: `${DEVICE_COOKIE}=${device}` } : {}) },
    payload: loginBody(customer),
    remoteAddress: ip,
  });
  expect(first.statusCode).toBe(200);
  const given = first.cookies.find((c) => c.name === DEVICE_COOKIE);
  if (given) {
    expect(given).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(given.maxAge).toBe(400 * 24 * 60 * 60);
  }
  const used = given?.value ?? device!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-2fa',
    headers: { ...headers, cookie: `${DEVICE_COOKIE}=${used}` },
    payload: { tempToken: first.json().tempToken, verificationCode: await latestCode(t) },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  return used;
}

/** The mails sent to `to` after `before` mails, with `subject`. */
async function mailsSince(before: number, to: string, subject: string): Promise<ReadMail[]> {
  return (await t.outbox()).slice(before).filter((m) => m.to === to && m.subject === subject);
}

describe('the new browser notice', () => {
  it('is not sent for the first browser, nor for a browser seen before, and is sent for a new one', async () => {
    const customer = await createCustomer(t);
    const before = (await t.outbox()).length;
    const home = await signInFrom(customer);
    expect(home).toMatch(/^[\w-]{43}$/);
    expect(await signInFrom(customer, home)).toBe(home);
    expect(await mailsSince(before, customer.email, 'New sign-in to your portal account')).toEqual(
      [],
    );

    const other = await signInFrom(customer);
    expect(other).not.toBe(home);
    const [notice] = await mailsSince(before, customer.email, 'New sign-in to your portal account');
    expect(notice!.text).toContain('When: ');
    expect(notice!.text).toContain('(India time)');
    expect(notice!.text).toContain('Browser: Chrome on Windows');
    // its button ends that session; the password reset is named after it
    expect(linksOf(notice!.html)).toContainEqual(
      expect.stringMatching(new RegExp(`^${t.config.PUBLIC_URL}/end-session#token=[\\w-]+$`)),
    );
    expect(notice!.text).toContain(`${t.config.PUBLIC_URL}/reset-password`);
    expect(notice!.html).toContain(`Dear ${customer.companyName},`);

    // both are known now: no more notices
    await signInFrom(customer, home);
    await signInFrom(customer, other);
    expect(
      await mailsSince(before, customer.email, 'New sign-in to your portal account'),
    ).toHaveLength(1);
  });

  it('takes a forged device cookie for a new browser', async () => {
    const customer = await createCustomer(t);
    await signInFrom(customer);
    const before = (await t.outbox()).length;
    const given = await signInFrom(customer, 'not-a-device-id');
    expect(given).toMatch(/^[\w-]{43}$/);
    expect(
      await mailsSince(before, customer.email, 'New sign-in to your portal account'),
    ).toHaveLength(1);
  });
});

describe('the consent status notice', () => {
  it('tells the customer when a refresh finds the consent Approved at the bank, and not when nothing changed', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const partner = await createTestPartner(t, 'Tally <Sync> & Co');
    const consent = await requestTestConsent(t, partner.apiKey, customer.id);
    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/consent/getstatus',
        headers,
        payload: { consentId: consent.consentId },
      });
    const before = (await t.outbox()).length;
    expect((await refresh()).statusCode).toBe(200);
    expect(await mailsSince(before, customer.email, 'A banking consent changed status')).toEqual(
      [],
    );

    await decideAtBank(t, consent.consentId, 'authorise');
    expect((await refresh()).statusCode).toBe(200);
    expect((await refresh()).statusCode).toBe(200);
    const notices = await mailsSince(before, customer.email, 'A banking consent changed status');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(
      'Your banking consent with Tally <Sync> & Co is now Approved.',
    );
    expect(notices[0]!.text).toContain(`Consent: ${consent.consentId}`);
    expect(notices[0]!.text).toContain('Status: Approved (was Pending)');
    expect(notices[0]!.html).toContain('Tally &lt;Sync&gt; &amp; Co');
    expect(linksOf(notices[0]!.html)).toContain(`${t.config.PUBLIC_URL}/consents`);
  });
});

describe('the receipt mail', () => {
  it('follows a completed payment once, with the stored GST invoice attached', async () => {
    const b = await buyer(t, { planName: 'Gold <Annual>' });
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const before = (await t.outbox()).length;
    const callback = await b.checkout(checkoutPath, 'pay');
    // the browser's return and the webhook both report the payment: one mail
    await t.app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    const mails = (await t.outbox())
      .slice(before)
      .filter((m) => m.to === b.customer.email && m.subject.startsWith('Your invoice INV/'));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const invoiceNumber = mail!.subject.replace('Your invoice ', '');
    expect(mail!.text).toContain(`order #${orderId.slice(0, 6).toUpperCase()}`);
    expect(mail!.text).toContain('for the Gold <Annual> plan');
    expect(mail!.html).toContain('Gold &lt;Annual&gt;');
    expect(linksOf(mail!.html)).toContain(`${t.config.PUBLIC_URL}/orders`);
    const stored = await t.deps.files.read(receiptFileKey(orderId));
    expect(mail!.attachments).toEqual([
      {
        filename: `Invoice-${invoiceNumber.replace(/\//g, '-')}.pdf`,
        contentType: 'application/pdf',
        content: stored,
      },
    ]);
    expect(stored!.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
