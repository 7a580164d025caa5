// The sandbox bank's settings, which the composition needs to plug it in and its page to name.

export const SANDBOX_BANK_PREFIX = '/sandbox/bank';

/** The portal's client id at the sandbox bank. */
export const SANDBOX_BANK_CLIENT_ID = 'customer-portal';
/** The key in DATA_DIR/secrets.json that holds the sandbox bank's client secret. */
export const SANDBOX_BANK_SECRET_KEY = 'sandboxBankClientSecret';
