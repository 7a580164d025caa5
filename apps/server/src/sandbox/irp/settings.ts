// The sandbox IRP's settings, which the composition needs to plug it in.

export const SANDBOX_IRP_PREFIX = '/sandbox/irp';

/** The portal's API user at the sandbox IRP: its client id and user name. */
export const SANDBOX_IRP_CLIENT_ID = 'customer-portal';
export const SANDBOX_IRP_USERNAME = 'portal-api';
/** The keys in DATA_DIR/secrets.json that hold the sandbox IRP's client secret and password. */
export const SANDBOX_IRP_SECRET_KEY = 'sandboxIrpClientSecret';
export const SANDBOX_IRP_PASSWORD_KEY = 'sandboxIrpPassword';
