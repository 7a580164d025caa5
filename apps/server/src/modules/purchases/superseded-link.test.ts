import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPaymentLinks } from '../../sandbox/gateway/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from './schema';
import { buyer, linkEvent, sendWebhook, startPayment } from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const linkIdOf = (paymentUrl: string) => new URL(paymentUrl).pathname.split('/').at(-1)!;
const orderRow = async (orderId: string) =>
  (await t.deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
const linksOf = (orderId: string) =>
  t.deps.db
    .select({ id: sandboxPaymentLinks.id, status: sandboxPaymentLinks.status })
    .from(sandboxPaymentLinks)
    .where(eq(sandboxPaymentLinks.referenceId, orderId));

describe('POST /api/create-payment for an order that already has a payment link', () => {
  it('cancels the first link when started again with other customer details, and its page then refuses payment', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);

    const again = await startPayment(t, b, orderId, {
      customer_email: `accounts-${b.customer.email}`,
    });
    expect(again.statusCode).toBe(200);
    const secondId = linkIdOf(again.json().paymentUrl);
    expect(secondId).not.toBe(first.linkId);
    expect((await t.deps.payments.gateway.fetchPaymentLink(first.linkId)).status).toBe('cancelled');
    expect(await orderRow(orderId)).toMatchObject({
      status: 'Pending',
      paymentLinkId: secondId,
      customerEmail: `accounts-${b.customer.email}`,
    });

    const page = await t.app.inject({ method: 'GET', url: first.checkoutPath });
    expect(page.body).toContain('This payment link is cancelled.');
    const pay = await t.app.inject({
      method: 'POST',
      url: `${first.checkoutPath}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(first.checkoutPath);
    expect(await t.deps.payments.gateway.fetchPaymentLink(first.linkId)).toMatchObject({
      status: 'cancelled',
      amount_paid: 0,
      payments: null,
    });
    expect((await orderRow(orderId)).status).toBe('Pending');

    // the new link takes the money and completes the order
    await b.checkout(new URL(again.json().paymentUrl).pathname, 'pay');
    expect(await orderRow(orderId)).toMatchObject({ status: 'Completed' });
    expect(await linksOf(orderId)).toEqual(
      expect.arrayContaining([
        { id: first.linkId, status: 'cancelled' },
        { id: secondId, status: 'paid' },
      ]),
    );
  });

  it('makes a new link when only the name or only the phone number changes', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const renamed = await startPayment(t, b, orderId, { customer_name: 'Accounts Desk' });
    expect(renamed.statusCode).toBe(200);
    const secondId = linkIdOf(renamed.json().paymentUrl);
    const rephoned = await startPayment(t, b, orderId, {
      customer_name: 'Accounts Desk',
      customer_phone: '9123456780',
    });
    expect(rephoned.statusCode).toBe(200);
    const thirdId = linkIdOf(rephoned.json().paymentUrl);
    expect(new Set([first.linkId, secondId, thirdId]).size).toBe(3);
    expect(await orderRow(orderId)).toMatchObject({
      paymentLinkId: thirdId,
      customerName: 'Accounts Desk',
      customerPhone: '9123456780',
    });
    expect(await linksOf(orderId)).toEqual(
      expect.arrayContaining([
        { id: first.linkId, status: 'cancelled' },
        { id: secondId, status: 'cancelled' },
        { id: thirdId, status: 'created' },
      ]),
    );
  });

  it('keeps the first link when the gateway cannot cancel it, and answers 502', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const { gateway } = t.deps.payments;
    const { cancelPaymentLink } = gateway;
    gateway.cancelPaymentLink = () => Promise.reject(new Error('gateway unreachable'));
    try {
      const res = await startPayment(t, b, orderId, {
        customer_email: `accounts-${b.customer.email}`,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        success: false,
        message: 'Payment initiation failed',
        error: 'gateway unreachable',
      });
    } finally {
      gateway.cancelPaymentLink = cancelPaymentLink;
    }
    expect(await orderRow(orderId)).toMatchObject({
      status: 'Pending',
      paymentLinkId: first.linkId,
      paymentUrl: first.url.href,
      customerEmail: b.customer.email,
    });
    expect(await linksOf(orderId)).toEqual([{ id: first.linkId, status: 'created' }]);
  });

  it('makes a new link for the first details again when the link that was to replace them failed', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const { gateway } = t.deps.payments;
    const { createPaymentLink } = gateway;
    gateway.createPaymentLink = () => Promise.reject(new Error('gateway unreachable'));
    try {
      const res = await startPayment(t, b, orderId, {
        customer_email: `accounts-${b.customer.email}`,
      });
      expect(res.statusCode).toBe(502);
    } finally {
      gateway.createPaymentLink = createPaymentLink;
    }
    // the first link is cancelled and the order has none, though it still names its details
    expect(await orderRow(orderId)).toMatchObject({
      paymentLinkId: null,
      paymentUrl: null,
      customerEmail: b.customer.email,
    });
    const again = await startPayment(t, b, orderId);
    expect(again.statusCode).toBe(200);
    const secondId = linkIdOf(again.json().paymentUrl);
    expect(secondId).not.toBe(first.linkId);
    expect(await orderRow(orderId)).toMatchObject({ paymentLinkId: secondId });
  });

  it('answers the link a request made meanwhile when the gateway refuses a second one for the order', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { gateway } = t.deps.payments;
    const { createPaymentLink } = gateway;
    let meanwhile: ReturnType<typeof startPayment> | undefined;
    // another request starts the same payment while this one is on its way to the gateway
    gateway.createPaymentLink = async (input) => {
      if (!meanwhile) {
        meanwhile = startPayment(t, b, orderId);
        await meanwhile;
      }
      return createPaymentLink(input);
    };
    let res;
    try {
      res = await startPayment(t, b, orderId);
    } finally {
      gateway.createPaymentLink = createPaymentLink;
    }
    const other = await meanwhile!;
    expect(other.statusCode).toBe(200);
    expect(res.statusCode).toBe(200);
    expect(res.json().paymentUrl).toBe(other.json().paymentUrl);
    expect(await linksOf(orderId)).toEqual([
      { id: linkIdOf(res.json().paymentUrl), status: 'created' },
    ]);
  });

  it('cancels its own new link and answers the order’s when another request gave the order a link first', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { gateway } = t.deps.payments;
    const { createPaymentLink } = gateway;
    let other: ReturnType<typeof startPayment> | undefined;
    // the other request ends while this one waits on a gateway that takes a second link for the
    // order (the sandbox takes one link per reference, so this one is filed under another)
    gateway.createPaymentLink = async (input) => {
      if (other) return createPaymentLink(input);
      other = startPayment(t, b, orderId);
      await other;
      return createPaymentLink({ ...input, referenceId: `${input.referenceId}-2` });
    };
    let res;
    try {
      res = await startPayment(t, b, orderId);
    } finally {
      gateway.createPaymentLink = createPaymentLink;
    }
    const first = await other!;
    expect(first.statusCode).toBe(200);
    expect(res.statusCode).toBe(200);
    expect(res.json().paymentUrl).toBe(first.json().paymentUrl);
    expect(await linksOf(orderId)).toEqual([
      { id: linkIdOf(first.json().paymentUrl), status: 'created' },
    ]);
    expect(await linksOf(`${orderId}-2`)).toEqual([
      { id: expect.any(String), status: 'cancelled' },
    ]);
  });

  it('answers 409 when the link another request gave the order is being replaced by a third', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { gateway } = t.deps.payments;
    const { createPaymentLink, cancelPaymentLink } = gateway;
    let second: ReturnType<typeof startPayment> | undefined;
    let third: ReturnType<typeof startPayment> | undefined;
    let ownLinkId = '';
    let thirdCancelling = () => {};
    const thirdInCancel = new Promise<void>((resolve) => (thirdCancelling = resolve));
    let releaseThird = () => {};
    const thirdMayGoOn = new Promise<void>((resolve) => (releaseThird = resolve));
    gateway.createPaymentLink = async (input) => {
      if (second) return createPaymentLink(input);
      second = startPayment(t, b, orderId);
      await second;
      const link = await createPaymentLink({ ...input, referenceId: `${input.referenceId}-2` });
      ownLinkId = link.id;
      return link;
    };
    gateway.cancelPaymentLink = async (id) => {
      if (id === ownLinkId && !third) {
        // while this request withdraws its own link, a third one, with other details, takes the
        // second's link off the order and is held at the gateway
        third = startPayment(t, b, orderId, { customer_email: `team-${b.customer.email}` });
        await thirdInCancel;
      } else if (third) {
        thirdCancelling();
        await thirdMayGoOn;
      }
      return cancelPaymentLink(id);
    };
    let res;
    try {
      res = await startPayment(t, b, orderId);
      releaseThird();
      expect((await third!).statusCode).toBe(200);
    } finally {
      gateway.createPaymentLink = createPaymentLink;
      gateway.cancelPaymentLink = cancelPaymentLink;
    }
    expect((await second!).statusCode).toBe(200);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message: 'This payment was changed meanwhile. Please try again.',
    });
    const { paymentLinkId, customerEmail } = await orderRow(orderId);
    expect(customerEmail).toBe(`team-${b.customer.email}`);
    expect((await linksOf(orderId)).filter((link) => link.status === 'created')).toEqual([
      { id: paymentLinkId, status: 'created' },
    ]);
  });

  it('answers the same link when started again with the same details, and cancels nothing', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const again = await startPayment(t, b, orderId);
    expect(again.statusCode).toBe(200);
    expect(again.json().paymentUrl).toBe(first.url.href);
    expect(await linksOf(orderId)).toEqual([{ id: first.linkId, status: 'created' }]);
  });

  it('keeps a link that was paid before it could be cancelled, and completes the order from it', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const { gateway } = t.deps.payments;
    const { cancelPaymentLink } = gateway;
    // the customer pays on the first link just as the portal turns to cancel it
    gateway.cancelPaymentLink = async (id) => {
      await b.checkout(first.checkoutPath, 'pay');
      return cancelPaymentLink(id);
    };
    try {
      const res = await startPayment(t, b, orderId, {
        customer_email: `accounts-${b.customer.email}`,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, message: 'This order is already paid' });
    } finally {
      gateway.cancelPaymentLink = cancelPaymentLink;
    }
    expect(await orderRow(orderId)).toMatchObject({
      status: 'Completed',
      paymentLinkId: first.linkId,
      customerEmail: b.customer.email,
    });
    expect(await linksOf(orderId)).toEqual([{ id: first.linkId, status: 'paid' }]);
  });

  it('leaves exactly one payable link, the order’s, when started again many times at once', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    await b.pay(orderId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        startPayment(t, b, orderId, { customer_email: `team${i}-${b.customer.email}` }),
      ),
    );
    for (const res of answers) expect([200, 409, 502], res.body).toContain(res.statusCode);
    expect(answers.some((res) => res.statusCode === 200)).toBe(true);
    const payable = (await linksOf(orderId)).filter((link) => link.status === 'created');
    expect(payable).toEqual([{ id: (await orderRow(orderId)).paymentLinkId, status: 'created' }]);
  });
});

describe('POST /api/payments/webhook about a link its order has let go of', () => {
  it("takes the link's cancellation and changes nothing, where an unknown order is refused", async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const again = await startPayment(t, b, orderId, {
      customer_email: `billing-${b.customer.email}`,
    });
    const secondId = linkIdOf(again.json().paymentUrl);
    const { totalPaise } = await orderRow(orderId);

    const cancelled = await sendWebhook(
      t,
      'payment_link.cancelled',
      linkEvent({ linkId: first.linkId, orderId, totalPaise }, 'cancelled'),
    );
    expect(cancelled.statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'Pending', paymentLinkId: secondId });

    const unknown = await sendWebhook(
      t,
      'payment_link.cancelled',
      linkEvent({ linkId: first.linkId, orderId: crypto.randomUUID(), totalPaise }, 'cancelled'),
    );
    expect(unknown.statusCode).toBe(404);
  });
});
