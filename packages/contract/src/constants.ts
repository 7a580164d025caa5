/** Business constants of spec §9, shared by the web app and the server. */
export const VERIFICATION_CODE_LENGTH = 6;
/** How long an e-mailed sign-in code stays valid. */
export const CODE_TTL_MS = 10 * 60_000;
/** A new code may be asked for once a minute. */
export const RESEND_INTERVAL_MS = 60_000;
export const MIN_PASSWORD_LENGTH = 6;
export const CONSENTS_PAGE_SIZE = 10;
export const TOKEN_DISPLAY_LENGTH = 50;
export const RESET_REDIRECT_DELAY_MS = 2000;
export const MOBILE_SIDEBAR_BREAKPOINT_PX = 1024;
export const AUTH_STORAGE_KEY = 'auth-storage';
export const REMEMBERED_LOGIN_KEY = 'remembered-login';
export const NOTICE_DURATION_MS = 4000;
