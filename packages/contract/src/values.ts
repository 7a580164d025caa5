/** The contract's plain values (paths, limits, texts, helpers): no zod, so that a screen that
 * needs only these does not build any schema. */

// auth
export const authPaths = {
  login: '/api/auth/login',
  verify2fa: '/api/auth/verify-2fa',
  resendVerification: '/api/auth/resend-verification',
  /** Whether the pending sign-in's code mail has gone, waits, or is failing. */
  codeMailStatus: '/api/auth/code-mail-status',
  refreshToken: '/api/auth/refresh-token',
  logout: '/api/auth/logout',
  profile: '/api/auth/profile',
  forgotPassword: '/api/users/forgot-password',
  resetPassword: '/api/users/reset-password',
  changePassword: '/api/users/:id',
} as const;
/** Builds the change-password path for a customer id. */
export const changePasswordPath = (id: string) => `/api/users/${encodeURIComponent(id)}`;
/** The texts the server answers with, so that both sides and the tests quote them alike. */
export const authMessages = {
  invalidLogin: 'Invalid login details. Please check and try again.',
  codeSent: 'Verification code sent to your email',
  loginSuccessful: 'Login successful!',
  invalidCode: 'Invalid verification code',
  codeExpired: 'Verification code has expired. Please sign in again.',
  tooManyCodes: 'Too many incorrect codes. Please sign in again.',
  tooManyResends: 'Too many codes requested. Please sign in again.',
  sessionExpired: 'Session expired. Please log in again.',
  crossSite: 'Cross-site request refused.',
  loggedOut: 'Logged out successfully',
  profileFetched: 'Profile fetched successfully',
  notYourAccount: 'You can only change your own password.',
  currentPasswordIncorrect: 'Current password is incorrect',
  commonPassword:
    'This password is one of the most common and easily guessed. Please choose another.',
  passwordChanged: 'Password changed successfully!',
  resetLinkSent: 'If an account exists for that e-mail, a reset link has been sent.',
  resetLinkInvalid: 'This reset link is invalid or has expired.',
  passwordReset: 'Password reset successfully!',
  accountLocked:
    'This account is locked after too many failed attempts. Please reset your password using Forgot password.',
} as const;

// common
/** The message and error code that mark an expired access token (spec §7). */
export const JWT_EXPIRED = 'jwt expired';

// consents
export const consentPaths = {
  /** Every consent of a customer, newest first, streamed (docs/decisions/028). */
  allForUser: '/api/user-consents/user/:userId',
  /** One page, optionally of one status and matching a search. */
  list: '/api/user-consents',
  /** Asks the provider again and stores its answer. */
  getStatus: '/api/consent/getstatus',
  /** Revokes at the provider, then removes. */
  remove: '/api/user-consents/:id',
} as const;
export const userConsentsPath = (userId: string) =>
  `/api/user-consents/user/${encodeURIComponent(userId)}`;
export const userConsentPath = (id: string) => `/api/user-consents/${encodeURIComponent(id)}`;
/** The portal's own paths for consents past the spec. */
export const consentDetailPaths = {
  /** Revoked and expired consents, newest first. */
  history: '/api/user-consents/history',
  /** One of the customer's current consents. */
  one: '/api/user-consents/:id',
  /** Asks the partner to reconnect an expired or expiring consent (decision 041). */
  reconnect: '/api/user-consents/:id/reconnect',
  /** Pauses an approved consent: the partner's reads are refused until resumed (decision 077). */
  pause: '/api/user-consents/:id/pause',
  resume: '/api/user-consents/:id/resume',
} as const;
export const pauseConsentPath = (id: string, action: 'pause' | 'resume') =>
  `/api/user-consents/${encodeURIComponent(id)}/${action}`;
export const reconnectConsentPath = (id: string) =>
  `/api/user-consents/${encodeURIComponent(id)}/reconnect`;

/**
 * The screen that reconnects a consent: the consents page opens that consent's Reconnect
 * dialog. Links from elsewhere (the dashboard's "Coming up" card) use this.
 */
export const reconnectConsentLink = (id: string) => `/consents?reconnect=${encodeURIComponent(id)}`;
/** Spec §4: the four consent states the portal knows. */
export const CONSENT_STATUSES = ['Pending', 'Approved', 'Rejected', 'Expired'] as const;
export const CONSENT_SEARCH_MAX_LENGTH = 100;

// dashboard
/** Spec §9: the first 2 consents, the first 2 orders and a welcome item, cut to 4. */
export const DASHBOARD_ACTIVITY_CONSENTS = 2;
export const DASHBOARD_ACTIVITY_ORDERS = 2;
export const DASHBOARD_ACTIVITY_LIMIT = 4;
export const dashboardPaths = {
  /** Every counter of the dashboard and of the consents screen's tiles, from stored counters. */
  counters: '/api/dashboard/counters',
} as const;

// orders
export const orderPaths = {
  create: '/api/orders',
  history: '/api/orders/history',
  checkStatus: '/api/orders/:id/check-status',
  receipt: '/api/orders/:id/receipt',
} as const;
export const checkStatusPath = (orderId: string) =>
  `/api/orders/${encodeURIComponent(orderId)}/check-status`;
export const receiptPath = (orderId: string) =>
  `/api/orders/${encodeURIComponent(orderId)}/receipt`;
/** How an order is named on every screen, in mail and at the gateway: #4FA65D. */
export const orderRef = (orderId: string) => `#${orderId.slice(0, 6).toUpperCase()}`;
export const ORDER_HISTORY_PAGE_SIZE = 10;
export const ORDER_HISTORY_MAX_LIMIT = 100;
export const ORDER_HISTORY_CURSOR_MAX_LENGTH = 200;
export const ORDER_CURSOR_MESSAGE = 'must be the nextCursor of an earlier page';

// notifications
export const notificationPaths = {
  list: '/api/notifications',
  seen: '/api/notifications/seen',
} as const;

// payments
export const paymentPaths = {
  createPayment: '/api/create-payment',
  callback: '/api/payments/callback',
  webhook: '/api/payments/webhook',
} as const;

// plans
export const plansPath = '/api/plans';
// coming up (the dashboard's card) and reminders
export const comingUpPath = '/api/coming-up';
/** How far ahead the card looks for consents that expire. */
export const COMING_UP_DAYS = 30;
/** Days before a plan's end or a consent's expiry when a reminder is sent, largest first. */
export const REMINDER_DAYS = [30, 7, 1] as const;

// plugins
export const pluginPaths = {
  list: '/api/plugins',
  /** Served without a bearer token: a new tab carries none; the signed query proves access. */
  download: '/api/plugins/:id/download',
} as const;
export const pluginDownloadPath = (id: string) => `/api/plugins/${encodeURIComponent(id)}/download`;
/** How long a download link works; the screen fetches fresh links before they run out. */
export const PLUGIN_LINK_TTL_SECONDS = 15 * 60;

// activity
export const activityPaths = {
  feed: '/api/activity',
} as const;
export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_MAX_PAGE_SIZE = 100;

// security
export const securityPaths = {
  sessions: '/api/security/sessions',
  session: '/api/security/sessions/:id',
  endOtherSessions: '/api/security/sessions/end-others',
  signIns: '/api/security/sign-ins',
  lastSignIn: '/api/security/last-sign-in',
  /** Served without a bearer token: the link in the new-browser notice proves access. */
  endSessionByLink: '/api/security/end-session-link',
} as const;
export const securitySessionPath = (id: string) =>
  `/api/security/sessions/${encodeURIComponent(id)}`;
export const SIGN_IN_HISTORY_PAGE_SIZE = 20;
export const SIGN_IN_HISTORY_MAX_PAGE_SIZE = 100;
/** How long sign-in history is kept (docs/decisions/035-signed-in-sessions-and-history.md). */
export const SIGN_IN_HISTORY_DAYS = 90;
export const securityMessages = {
  sessionsFetched: 'Sessions fetched successfully',
  sessionEnded: 'The session is signed out.',
  otherSessionsEnded: 'All other sessions are signed out.',
  sessionNotFound: 'Session not found.',
  endLinkInvalid: 'This link is invalid, has expired or was already used.',
} as const;
