import Razorpay from 'razorpay';
import { paymentPaths } from '@portal/contract';
import { hmacHex } from '../adapters/payment-gateway';
import type { TestApp } from './app';

/** A webhook the sandbox gateway sent about a subscription, as the portal received it. */
export interface SentWebhook {
  event: string;
  subscription: { id: string; status: string; paid_count: number };
  payment?: { id: string; entity: string; amount: number; status: string; method: string };
  /** Its `x-razorpay-signature` is the HMAC of the body with the webhook secret. */
  signed: boolean;
  /** The portal's answer. */
  answered: number;
}

/** Records every webhook the sandbox gateway sends from now on; they still reach the portal. */
export function captureWebhooks(t: TestApp) {
  const sent: SentWebhook[] = [];
  const deliver = t.deps.payments.fetch;
  t.deps.payments.fetch = async (url, init) => {
    const response = await deliver(url, init);
    const body = String(init?.body);
    const { event, payload } = JSON.parse(body);
    sent.push({
      event,
      subscription: payload.subscription?.entity,
      payment: payload.payment?.entity,
      signed:
        new Headers(init?.headers).get('x-razorpay-signature') ===
        hmacHex(t.deps.payments.settings.webhookSecret, body),
      answered: response.status,
    });
    return response;
  };
  /** The webhooks about one subscription, in the order they were sent. */
  return (subscriptionId: string) => sent.filter((w) => w.subscription?.id === subscriptionId);
}

/** The customer's answer on a subscription's hosted page: its form, posted as a browser does. */
export async function answerAuthorisation(
  t: TestApp,
  shortUrl: string,
  method: 'upi' | 'emandate' | 'card',
  outcome: 'authorise' | 'fail' = 'authorise',
) {
  const page = new URL(shortUrl).pathname;
  const res = await t.app.inject({
    method: 'POST',
    url: page,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method, outcome }).toString(),
  });
  // the page shows what became of the subscription
  if (res.statusCode !== 303 || res.headers.location !== page) {
    throw new Error(`the authorisation page answered ${res.statusCode}: ${res.body}`);
  }
}

/** The sandbox's own call (not Razorpay's): runs a subscription's next charge. */
export async function runCharge(
  t: TestApp,
  subscriptionId: string,
  body: { outcome: 'success' | 'failure'; authenticated?: boolean },
) {
  const { keyId, keySecret } = t.deps.payments.settings;
  const res = await t.app.inject({
    method: 'POST',
    url: `/sandbox/razorpay/v1/sandbox/subscriptions/${subscriptionId}/charge`,
    headers: { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}` },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

/**
 * The official `razorpay` SDK aimed at the sandbox gateway the test app listens on at `address`
 * (the SDK has no option for its host: its axios instance holds it).
 */
export function sandboxSdk(
  t: TestApp,
  address: string,
  keySecret = t.deps.payments.settings.keySecret,
) {
  const client = new Razorpay({ key_id: t.deps.payments.settings.keyId, key_secret: keySecret });
  const api = client.api as unknown as { rq: { defaults: { baseURL: string } } };
  api.rq.defaults.baseURL = `${address}/sandbox/razorpay`;
  return client;
}

/** The SDK's rejection, `{ statusCode, error: { description } }`; an answer is no refusal. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 200, description: 'answered' }),
    (e: { statusCode: number; error: { description: string } }) => ({
      status: e.statusCode,
      description: e.error.description,
    }),
  );

/**
 * The gateway's webhooks, lost while `lost.now` is true (answered 503 by no portal); its API
 * still answers. Wrap before `captureWebhooks`, so that the lost ones are captured too.
 */
export function losableWebhooks(t: TestApp) {
  const lost = { now: false };
  const deliver = t.deps.payments.fetch;
  t.deps.payments.fetch = async (url, init) =>
    lost.now && String(url).endsWith(paymentPaths.webhook)
      ? new Response('lost', { status: 503 })
      : deliver(url, init);
  return lost;
}
