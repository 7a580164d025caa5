import type { User } from '@portal/contract';

/** A profile as GET /api/auth/profile answers it, for tests; pass only the fields that differ. */
export const testUser = (overrides: Partial<User> = {}): User => ({
  _id: 'c1',
  id: 'c1',
  company_name: 'Acme Traders Pvt Ltd',
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  category: 'Retail',
  tally_serialno: '712345678',
  tally_version: 'TallyPrime 5.1',
  customer_type: 'Customer',
  created_at: '2025-03-15T10:00:00.000Z',
  plan: null,
  ...overrides,
});

/** A fetch answer with `body` as JSON and the given status. */
export const jsonResponse = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
