import { count } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { hashPassword } from '../lib/password';
import { customers } from '../modules/users/schema';
import { seedDemoPlugins } from '../modules/plugins/seed';
import { seedDemoPlans } from '../modules/plans/service';
import { seedDemoConsents } from './consents';

export const DEMO_ACCOUNT = {
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tallySerialNo: '712345678',
  password: 'Demo@12345',
  companyName: 'Acme Traders Pvt Ltd',
  customerType: 'Customer',
  category: 'Retail',
  tallyVersion: 'TallyPrime 5.1',
} as const;

/**
 * On an empty database, creates the demo account and its sample data, when SEED_DEMO asks for it
 * (by default outside production only: its password is published in the README).
 */
export async function seedDemoIfEmpty(deps: AppDeps): Promise<boolean> {
  const { db } = deps;
  if (!deps.config.SEED_DEMO) return false;
  const [row] = await db.select({ n: count() }).from(customers);
  if ((row?.n ?? 0) > 0) return false;
  const { password, ...profile } = DEMO_ACCOUNT;
  const [demo] = await db
    .insert(customers)
    .values({ ...profile, passwordHash: await hashPassword(password) })
    .returning({ id: customers.id });
  if (!demo) throw new Error('demo account was not created');
  // Feature modules add their demo data here, for the demo customer.
  await seedDemoPlugins(deps);
  await seedDemoPlans(deps.db, deps.clock);
  await seedDemoConsents(deps, demo.id);
  return true;
}
