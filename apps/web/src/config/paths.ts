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
} as const;
