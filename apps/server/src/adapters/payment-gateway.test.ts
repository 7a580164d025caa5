import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { recordingServer } from '../sandbox/recording-server';
import {
  callbackSignature,
  createPaymentsDeps,
  createRazorpayGateway,
  gatewaySettingsFrom,
  type GatewaySettings,
} from './payment-gateway';

const settings: GatewaySettings = {
  baseUrl: 'https://api.razorpay.example',
  keyId: 'rzp_test_1DP5mmOlF5G5ag',
  keySecret: 'EnLs21M47BllR3X8PSFtjtbd',
  webhookSecret: 'whsec_test_1234',
  sandbox: false,
};

// Vectors in Razorpay's published formats, computed independently with
// `printf '%s' "$payload" | openssl dgst -sha256 -hmac "$secret"`.
const CALLBACK = {
  paymentLinkId: 'plink_ExjpAUN3gVHrPJ',
  referenceId: 'TSsd1989',
  status: 'paid',
  paymentId: 'pay_FHfqtkRzWvxky4',
  signature: '59732ca1e4b8ea690645b0ce50dbff530d76feb02a8b79f0c6737396afa262b5',
};
const WEBHOOK_BODY =
  '{"entity":"event","account_id":"acc_BFQ7uQEaa7j2z7","event":"payment_link.paid","contains":["payment_link","payment"],"payload":{},"created_at":1602844800}';
const WEBHOOK_SIGNATURE = '6ae707d84f124ec90d2cfeaeb34b6c86174994faa8d8b4a185d92865b5a56d60';

const noFetch = async () => {
  throw new Error('no network in this test');
};

describe('callback signature', () => {
  const gateway = createRazorpayGateway(settings, noFetch);

  it('signs link id | reference | status | payment id with the key secret', () => {
    expect(callbackSignature(settings.keySecret, CALLBACK)).toBe(CALLBACK.signature);
    expect(gateway.verifyCallback(CALLBACK)).toBe(true);
  });

  it('refuses a changed field, a wrong secret, and junk', () => {
    expect(gateway.verifyCallback({ ...CALLBACK, status: 'cancelled' })).toBe(false);
    expect(gateway.verifyCallback({ ...CALLBACK, referenceId: 'TSsd1990' })).toBe(false);
    expect(
      gateway.verifyCallback({ ...CALLBACK, signature: CALLBACK.signature.slice(0, -2) }),
    ).toBe(false);
    expect(gateway.verifyCallback({ ...CALLBACK, signature: 'not-hex' })).toBe(false);
    expect(gateway.verifyCallback({ ...CALLBACK, signature: '' })).toBe(false);
    const other = createRazorpayGateway({ ...settings, keySecret: 'another-secret' }, noFetch);
    expect(other.verifyCallback(CALLBACK)).toBe(false);
  });
});

describe('webhook signature', () => {
  const gateway = createRazorpayGateway(settings, noFetch);

  it('is HMAC-SHA256 of the raw body with the webhook secret', () => {
    expect(gateway.verifyWebhook(Buffer.from(WEBHOOK_BODY), WEBHOOK_SIGNATURE)).toBe(true);
    expect(gateway.verifyWebhook(WEBHOOK_BODY, WEBHOOK_SIGNATURE.toUpperCase())).toBe(true);
  });

  it('refuses a re-serialised body, the key secret, and a missing header', () => {
    const reformatted = JSON.stringify(JSON.parse(WEBHOOK_BODY), null, 1);
    expect(gateway.verifyWebhook(Buffer.from(reformatted), WEBHOOK_SIGNATURE)).toBe(false);
    const keyed = createRazorpayGateway(
      { ...settings, webhookSecret: settings.keySecret },
      noFetch,
    );
    expect(keyed.verifyWebhook(WEBHOOK_BODY, WEBHOOK_SIGNATURE)).toBe(false);
    expect(gateway.verifyWebhook(WEBHOOK_BODY, undefined)).toBe(false);
  });
});

describe('payment links API', () => {
  it('creates a link with Basic auth and the payment-links fields', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const gateway = createRazorpayGateway(settings, async (url, init = {}) => {
      calls.push({ url, init });
      return new Response(
        JSON.stringify({
          id: 'plink_1',
          reference_id: 'order-1',
          status: 'created',
          amount: 123000,
          amount_paid: 0,
          short_url: 'https://rzp.io/i/abc',
          payments: null,
        }),
        { status: 200 },
      );
    });
    const link = await gateway.createPaymentLink({
      referenceId: 'order-1',
      amountPaise: 123000,
      description: 'Professional plan',
      customer: { name: 'Acme', email: 'a@example.test', contact: '9876543210' },
      callbackUrl: 'https://portal.example/api/payments/callback',
    });
    expect(link.short_url).toBe('https://rzp.io/i/abc');
    expect(calls[0]!.url).toBe('https://api.razorpay.example/v1/payment_links');
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get('authorization')).toBe(
      `Basic ${Buffer.from('rzp_test_1DP5mmOlF5G5ag:EnLs21M47BllR3X8PSFtjtbd').toString('base64')}`,
    );
    expect(JSON.parse(calls[0]!.init.body as string)).toMatchObject({
      amount: 123000,
      currency: 'INR',
      reference_id: 'order-1',
      customer: { name: 'Acme', email: 'a@example.test', contact: '9876543210' },
      callback_url: 'https://portal.example/api/payments/callback',
      callback_method: 'get',
    });
  });

  it('sends its credentials to the configured gateway and follows no redirect elsewhere', async () => {
    const elsewhere = await recordingServer(() => ({ status: 200, body: '{}' }));
    const gatewayServer = await recordingServer(() => ({
      status: 302,
      headers: { location: `${elsewhere.url}/v1/payment_links/plink_1` },
    }));
    try {
      const gateway = createRazorpayGateway({ ...settings, baseUrl: gatewayServer.url }, fetch);
      await expect(gateway.fetchPaymentLink('plink_1')).rejects.toThrow(
        'payment gateway unreachable',
      );
      expect(gatewayServer.requests).toHaveLength(1);
      expect(gatewayServer.requests[0]!.headers.authorization).toMatch(/^Basic /);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await Promise.all([elsewhere.close(), gatewayServer.close()]);
    }
  });

  it("reports the gateway's error description", async () => {
    const gateway = createRazorpayGateway(settings, async () =>
      Response.json({ error: { description: 'The api key provided is invalid' } }, { status: 401 }),
    );
    await expect(gateway.fetchPaymentLink('plink_1')).rejects.toThrow(
      /401: The api key provided is invalid/,
    );
  });
});

describe('gateway configuration', () => {
  it('defaults to the built-in sandbox with secrets kept in DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-config-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '3999' });
      const first = await gatewaySettingsFrom(config);
      expect(first).toMatchObject({
        baseUrl: 'http://localhost:3999/sandbox/razorpay',
        keyId: 'rzp_test_sandbox',
        sandbox: true,
      });
      expect(first.keySecret).not.toBe(first.webhookSecret);
      expect(await gatewaySettingsFrom(config)).toEqual(first);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('points at Razorpay by configuration, and requires its key id and both secrets', async () => {
    const env = {
      PAYMENT_GATEWAY_URL: 'https://api.razorpay.com',
      PAYMENT_GATEWAY_KEY_ID: 'rzp_live_abc',
    };
    expect(() => loadConfig(env)).toThrow(
      'PAYMENT_GATEWAY_KEY_SECRET and PAYMENT_GATEWAY_WEBHOOK_SECRET are required with PAYMENT_GATEWAY_URL',
    );
    const config = loadConfig({
      ...env,
      PAYMENT_GATEWAY_KEY_SECRET: 'key-secret-1',
      PAYMENT_GATEWAY_WEBHOOK_SECRET: 'hook-secret-1',
    });
    expect(await gatewaySettingsFrom(config)).toEqual({
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_abc',
      keySecret: 'key-secret-1',
      webhookSecret: 'hook-secret-1',
      sandbox: false,
    });
    const payments = await createPaymentsDeps(config);
    expect(payments.fetch).toBe(fetch);
    expect(payments.sandboxRoute).toBeUndefined();
  });

  it('reaches the sandbox in memory only, once it is mounted', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-config-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      const payments = await createPaymentsDeps(config);
      expect(payments.sandboxRoute?.fetch).toBe(payments.fetch);
      await expect(payments.gateway.fetchPaymentLink('plink_1')).rejects.toThrow(
        'payment gateway unreachable: the sandbox payment gateway is not mounted in this process',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
