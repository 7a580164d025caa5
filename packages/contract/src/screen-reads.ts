import { autoRenewalPaths } from './auto-renewal';
import { billingPaths } from './billing';
import { invoicePaths } from './invoices';
import {
  activityPaths,
  authPaths,
  comingUpPath,
  consentPaths,
  dashboardPaths,
  notificationPaths,
  orderPaths,
  plansPath,
  pluginPaths,
  securityPaths,
} from './values';

/**
 * The GET each screen makes, as the web app asks for it: the reads that carry the session in
 * their own statement, one round trip each, and that the bench holds to its budgets.
 */
export const screenReads = (customerId: string) => ({
  profile: authPaths.profile,
  'orders history': orderPaths.history,
  plans: plansPath,
  consents: `${consentPaths.list}?page=1&limit=10&userId=${customerId}`,
  invoices: invoicePaths.list,
  activity: activityPaths.feed,
  notifications: notificationPaths.list,
  'security sessions': securityPaths.sessions,
  'coming up': comingUpPath,
  'dashboard counters': `${dashboardPaths.counters}?userId=${customerId}`,
  plugins: pluginPaths.list,
  'billing details': billingPaths.details,
  'auto-renewal': autoRenewalPaths.renewal,
});
