import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { callbackSignature, createRazorpayGateway } from '../../adapters/payment-gateway';
import { recordingServer } from '../../sandbox/recording-server';
import { createTestApp, type TestApp } from '../../test/app';
import { paymentEvents } from './schema';
import {
  linkEvent,
  paidSilently,
  sendWebhook,
  settledEffects,
  signedWebhook,
} from '../../test/payments';

// what the portal tells its operators when it refuses a gateway message: the log is how a
// misconfigured secret or a forged request gets noticed
const logged: Record<string, unknown>[] = [];
let t: TestApp;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  t = await createTestApp({ logStream, env: { LOG_LEVEL: 'warn' } });
});
afterAll(() => t.close());
beforeEach(() => {
  logged.length = 0;
});

const warnings = () => logged.filter((entry) => entry.level === 40);

const callback = (query: URLSearchParams) =>
  t.app.inject({ method: 'GET', url: `/api/payments/callback?${query}` });

/** A callback query for the link and reference given, signed with the key secret. */
function signedCallback(
  paymentLinkId: string,
  referenceId: string,
  { status = 'paid', paymentId = 'pay_REFUSED' } = {},
) {
  const params = { paymentLinkId, referenceId, status, paymentId };
  const query = new URLSearchParams({
    razorpay_payment_id: paymentId,
    razorpay_payment_link_id: paymentLinkId,
    razorpay_payment_link_reference_id: referenceId,
    razorpay_payment_link_status: status,
    razorpay_signature: callbackSignature(t.deps.payments.settings.keySecret, params),
  });
  // a parameter the gateway leaves out is signed as empty
  for (const [name, value] of [...query]) if (value === '') query.delete(name);
  return query;
}

describe('POST /api/payments/webhook refusals', () => {
  it('logs a mis-signed webhook, one without an event id and one about an unknown order, and takes an id of 100 characters', async () => {
    const paid = await paidSilently(t);
    const payload = linkEvent(paid, 'paid');
    logged.length = 0; // the sandbox's own word on the webhook it could not deliver

    const misSigned = await sendWebhook(t, 'payment_link.paid', payload, { secret: 'not-it' });
    expect(misSigned.statusCode).toBe(401);
    expect(misSigned.json()).toMatchObject({ message: 'Webhook signature is not valid' });
    expect(warnings()).toEqual([
      expect.objectContaining({ msg: 'payment webhook with a bad or missing signature refused' }),
    ]);

    logged.length = 0;
    const blank = await sendWebhook(t, 'payment_link.paid', payload, { eventId: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: 'Webhook event id is missing' });
    expect(warnings()).toEqual([
      expect.objectContaining({ msg: 'payment webhook without an event id refused' }),
    ]);
    const overlong = await sendWebhook(t, 'payment_link.paid', payload, {
      eventId: 'e'.repeat(101),
    });
    expect(overlong.statusCode).toBe(400);
    expect(overlong.json().message).toContain('x-razorpay-event-id');
    const longest = await sendWebhook(t, 'payment_link.paid', payload, {
      eventId: 'e'.repeat(100),
    });
    expect(longest.json()).toEqual({ success: true, message: 'applied' });

    logged.length = 0;
    const eventId = `evt_${randomUUID()}`;
    const unknown = await sendWebhook(
      t,
      'payment_link.paid',
      linkEvent({ ...paid, orderId: randomUUID() }, 'paid'),
      { eventId },
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Order not found' });
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: 'payment webhook for an unknown order refused',
        eventId,
        event: 'payment_link.paid',
      }),
    ]);
  });
});

describe('POST /api/payments/webhook without an event name', () => {
  it('acknowledges it as ignored and keeps it as an unknown event', async () => {
    const eventId = `evt_${randomUUID()}`;
    const body = JSON.stringify({ entity: 'event', payload: {} });
    const res = await signedWebhook(t, body, { eventId });
    expect(res.json()).toEqual({ success: true, message: 'ignored' });
    const [kept] = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, eventId));
    expect(kept).toMatchObject({ event: 'unknown', orderId: null });
  });
});

describe('POST /api/payments/webhook with a signed body that is not JSON', () => {
  it('answers 400 and keeps no event', async () => {
    const eventId = `evt_${randomUUID()}`;
    const body = '{"entity": "event", ';
    const res = await signedWebhook(t, body, { eventId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: 'Request body is not valid JSON' });
    const kept = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, eventId));
    expect(kept).toEqual([]);
  });
});

describe('GET /api/payments/callback refusals', () => {
  it('logs an incomplete, a mis-signed and an unknown-order callback, and changes nothing', async () => {
    const { b, orderId, linkId } = await paidSilently(t);
    logged.length = 0; // the sandbox's own word on the webhook it could not deliver

    for (const missing of [
      'razorpay_payment_link_id',
      'razorpay_payment_link_reference_id',
      'razorpay_signature',
    ]) {
      logged.length = 0;
      const query = signedCallback(linkId, orderId);
      query.delete(missing);
      const incomplete = await callback(query);
      expect(incomplete.statusCode, missing).toBe(400);
      expect(incomplete.json()).toMatchObject({ message: 'Payment callback is incomplete' });
      expect(warnings()).toEqual([
        expect.objectContaining({ msg: 'payment callback without its parameters refused' }),
      ]);
    }

    logged.length = 0;
    const forged = signedCallback(linkId, orderId);
    forged.set('razorpay_payment_id', 'pay_OTHER');
    const misSigned = await callback(forged);
    expect(misSigned.statusCode).toBe(403);
    expect(misSigned.json()).toMatchObject({ message: 'Payment callback signature is not valid' });
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: 'payment callback with a bad signature refused',
        paymentLinkId: linkId,
      }),
    ]);

    logged.length = 0;
    const unknown = await callback(signedCallback(linkId, randomUUID()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Order not found' });
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: 'payment callback for an unknown order refused',
        paymentLinkId: linkId,
      }),
    ]);

    expect((await settledEffects(t, orderId, b.customer.id)).status).toBe('Pending');
  });

  it('takes a signed return without a payment id or status, and settles what the gateway says', async () => {
    const { b, orderId, linkId } = await paidSilently(t);
    const res = await callback(signedCallback(linkId, orderId, { status: '', paymentId: '' }));
    expect(res.statusCode).toBe(303);
    expect((await settledEffects(t, orderId, b.customer.id)).status).toBe('Completed');
  });

  it('sends the customer back to the order when the gateway cannot be asked, and leaves it for later', async () => {
    const { b, orderId, linkId } = await paidSilently(t);
    const busy = await recordingServer(() => ({ status: 503, body: '{}' }));
    const sandbox = t.deps.payments.gateway;
    t.deps.payments.gateway = createRazorpayGateway(
      { ...t.deps.payments.settings, baseUrl: busy.url },
      fetch,
    );
    try {
      const res = await callback(signedCallback(linkId, orderId));
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/orders?tab=history&order=${orderId}`);
      const checked = await t.app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/check-status`,
        headers: b.headers,
      });
      expect(checked.statusCode).toBe(502);
      expect(checked.json()).toMatchObject({
        message: 'Could not reach the payment gateway. Please try again.',
      });
    } finally {
      t.deps.payments.gateway = sandbox;
      await busy.close();
    }
    expect(warnings().filter((w) => w.msg === 'payment status check failed')).toEqual([
      expect.objectContaining({
        orderId,
        err: 'payment gateway answered 503: Service Unavailable',
      }),
      expect.objectContaining({
        orderId,
        err: 'payment gateway answered 503: Service Unavailable',
      }),
    ]);
    expect((await settledEffects(t, orderId, b.customer.id)).status).toBe('Pending');
  });
});
