/** A complete production configuration: its own secrets, address, gateway and bank. */
export const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://portal.example.in',
  JWT_SECRET: 'j'.repeat(32),
  LINK_SIGNING_SECRET: 'l'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
  PAYMENT_GATEWAY_URL: 'https://api.razorpay.com',
  PAYMENT_GATEWAY_KEY_ID: 'rzp_live_abc',
  PAYMENT_GATEWAY_KEY_SECRET: 'key-secret-1',
  PAYMENT_GATEWAY_WEBHOOK_SECRET: 'hook-secret-1',
  CONSENT_PROVIDER_URL: 'https://api.bank.example/open-banking/v3.1/aisp',
  CONSENT_PROVIDER_CLIENT_ID: 'portal-client',
  CONSENT_PROVIDER_CLIENT_SECRET: 'client-secret-1',
};
