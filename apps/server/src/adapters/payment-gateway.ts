import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError, sandboxesInUse, type Config } from '../config';
import { settingOrLocalSecrets } from '../lib/secrets';
import { createInProcessRoute, type InProcessRoute } from '../lib/in-process-route';
import {
  razorpaySubscriptions,
  type GatewayCall,
  type SubscriptionGateway,
} from './payment-gateway-subscriptions';

/** Where the built-in sandbox gateway answers, relative to PUBLIC_URL. */
export const SANDBOX_GATEWAY_PREFIX = '/sandbox/razorpay';

/** How to reach the gateway; the sandbox gets the same settings to check what it is sent. */
export interface GatewaySettings {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** True when the built-in sandbox is the gateway (it is then served by this app). */
  sandbox: boolean;
}

/** A payment link as Razorpay describes it (only the fields the portal uses). */
export interface PaymentLink {
  id: string;
  reference_id: string;
  /** created, partially_paid, paid, cancelled or expired */
  status: string;
  amount: number;
  amount_paid: number;
  short_url: string;
  payments: { payment_id: string; status: string; amount: number }[] | null;
}

export interface CreatePaymentLinkInput {
  referenceId: string;
  amountPaise: number;
  description: string;
  customer: { name: string; email: string; contact: string };
  callbackUrl: string;
  /** Seconds since the epoch. */
  expireBy?: number;
  notes?: Record<string, string>;
}

export interface CallbackParams {
  paymentLinkId: string;
  referenceId: string;
  status: string;
  paymentId: string;
  signature: string;
}

export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The Razorpay Payment Links, Plans and Subscriptions contract, as the portal uses it. */
export interface PaymentGateway extends SubscriptionGateway {
  createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink>;
  fetchPaymentLink(id: string): Promise<PaymentLink>;
  /** Closes a link still `created`, so that it takes no payment; the gateway refuses any other. */
  cancelPaymentLink(id: string): Promise<PaymentLink>;
  /** The callback's `razorpay_signature` (HMAC-SHA256 with the key secret). */
  verifyCallback(params: CallbackParams): boolean;
  /** `X-Razorpay-Signature`: HMAC-SHA256 of the raw body with the webhook secret. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): boolean;
}

export const hmacHex = (secret: string, data: Buffer | string) =>
  createHmac('sha256', secret).update(data).digest('hex');

export function callbackSignature(keySecret: string, p: Omit<CallbackParams, 'signature'>): string {
  return hmacHex(keySecret, `${p.paymentLinkId}|${p.referenceId}|${p.status}|${p.paymentId}`);
}

function safeEqualHex(expected: string, given: string | undefined): boolean {
  if (!given || !/^[0-9a-f]+$/i.test(given)) return false;
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export function createRazorpayGateway(
  settings: GatewaySettings,
  fetchImpl: FetchLike,
): PaymentGateway {
  const auth = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
  const base = settings.baseUrl.replace(/\/+$/, '');

  const call: GatewayCall = async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: auth,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
        // the credentials go to the configured gateway and nowhere a redirect points
        redirect: 'error',
      });
    } catch (error) {
      throw new GatewayError(`payment gateway unreachable: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let description = response.statusText;
      try {
        description =
          (JSON.parse(text) as { error?: { description?: string } }).error?.description ??
          description;
      } catch {
        // a non-JSON error page: keep the status text
      }
      throw new GatewayError(
        `payment gateway answered ${response.status}: ${description}`,
        response.status,
      );
    }
    return JSON.parse(text) as T;
  };

  return {
    createPaymentLink: (input) =>
      call<PaymentLink>('POST', '/v1/payment_links', {
        amount: input.amountPaise,
        currency: 'INR',
        accept_partial: false,
        reference_id: input.referenceId,
        description: input.description,
        customer: input.customer,
        notify: { sms: false, email: false },
        reminder_enable: false,
        notes: input.notes ?? {},
        callback_url: input.callbackUrl,
        callback_method: 'get',
        ...(input.expireBy ? { expire_by: input.expireBy } : {}),
      }),
    fetchPaymentLink: (id) =>
      call<PaymentLink>('GET', `/v1/payment_links/${encodeURIComponent(id)}`),
    cancelPaymentLink: (id) =>
      call<PaymentLink>('POST', `/v1/payment_links/${encodeURIComponent(id)}/cancel`),
    ...razorpaySubscriptions(call),
    verifyCallback: (p) => safeEqualHex(callbackSignature(settings.keySecret, p), p.signature),
    verifyWebhook: (rawBody, signature) =>
      safeEqualHex(hmacHex(settings.webhookSecret, rawBody), signature),
  };
}

/** The gateway settings from configuration; the sandbox's secrets are kept in DATA_DIR. */
export async function gatewaySettingsFrom(config: Config): Promise<GatewaySettings> {
  const sandbox = sandboxesInUse(config).gateway;
  if (!sandbox && !config.PAYMENT_GATEWAY_URL) {
    throw new ConfigError('Invalid configuration: PAYMENT_GATEWAY_URL is required');
  }
  const secrets = await settingOrLocalSecrets(config.DATA_DIR, {
    gatewayKeySecret: config.PAYMENT_GATEWAY_KEY_SECRET,
    gatewayWebhookSecret: config.PAYMENT_GATEWAY_WEBHOOK_SECRET,
  });
  return {
    // the sandbox is reached in memory: only the path of this address is used
    baseUrl: sandbox
      ? `${config.PUBLIC_URL}${SANDBOX_GATEWAY_PREFIX}`
      : config.PAYMENT_GATEWAY_URL!,
    keyId: config.PAYMENT_GATEWAY_KEY_ID,
    keySecret: secrets.gatewayKeySecret,
    webhookSecret: secrets.gatewayWebhookSecret,
    sandbox,
  };
}

/** What the payment modules need: the gateway, its settings and how to speak HTTP. */
export interface PaymentsDeps {
  gateway: PaymentGateway;
  settings: GatewaySettings;
  /** Outbound HTTP (the gateway's API, the sandbox's webhook delivery). */
  fetch: FetchLike;
  /** With the sandbox as the gateway: the in-memory way to it, which the sandbox serves. */
  sandboxRoute?: InProcessRoute;
}

/**
 * The gateway from configuration. The built-in sandbox is reached in memory, never over the
 * network, so its credentials cannot reach another server whatever PUBLIC_URL says.
 */
export async function createPaymentsDeps(
  config: Config,
  fetchImpl?: FetchLike,
): Promise<PaymentsDeps> {
  const settings = await gatewaySettingsFrom(config);
  const sandboxRoute =
    settings.sandbox && !fetchImpl ? createInProcessRoute('sandbox payment gateway') : undefined;
  const doFetch: FetchLike = fetchImpl ?? sandboxRoute?.fetch ?? fetch;
  return {
    settings,
    fetch: doFetch,
    gateway: createRazorpayGateway(settings, doFetch),
    ...(sandboxRoute ? { sandboxRoute } : {}),
  };
}
