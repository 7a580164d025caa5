/** Every route of the SPA (spec §2 route table); links and redirects go through here. */
export const paths = {
  login: '/login',
  resetPassword: '/reset-password',
  home: '/',
  dashboard: '/dashboard',
  profile: '/profile',
  plans: '/plans',
  plugins: '/plugins',
  orders: '/orders',
  ordersForPlan: (planId: string) => `/orders?planId=${encodeURIComponent(planId)}`,
  consents: '/consents',
  activity: '/activity',
  security: '/security',
  invoices: '/invoices',
  exports: '/exports',
  privacy: '/privacy',
  /** Where the new-browser notice's link lands, signed in or not. */
  endSession: '/end-session',
} as const;
