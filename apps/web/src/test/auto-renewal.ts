import type { AutoRenewal, Plan, PlansResponse } from '@portal/contract';
import { jsonResponse } from './data';

/** An auto-renewal as GET /api/auto-renewal answers it, for tests: on, by UPI Autopay. */
export const testRenewal = (overrides: Partial<AutoRenewal> = {}): AutoRenewal => ({
  status: 'on',
  planId: 'plan-starter',
  planName: 'Starter',
  method: 'upi',
  maxAmount: 15000,
  nextChargeDate: '2027-01-22T06:00:00.000Z',
  nextChargeAmount: 613.77,
  planEndDate: '2027-01-22T06:00:00.000Z',
  authoriseUrl: 'https://gateway.example/subscriptions/sub_1',
  ...overrides,
});

/** The answer of every /api/auto-renewal call. */
export const renewalAnswer = (autoRenewal: AutoRenewal | null, message = 'Auto-renewal fetched') =>
  jsonResponse(200, { success: true, message, autoRenewal });

const plan = (id: string, planName: string, noOfCompany: number): Plan => ({
  _id: id,
  planName,
  planType: noOfCompany === 1 ? 'Single' : 'Multi',
  noOfCompany,
  duration: 30,
  amount: 499 * noOfCompany,
  createdDate: '2026-06-01T10:00:00.000Z',
});

export const testPlans = [plan('plan-starter', 'Starter', 1), plan('plan-business', 'Business', 5)];

/** GET /api/plans: the plans on offer, and Starter in force until 22/01/2027 unless `none`. */
export function catalogueAnswer({ none = false } = {}) {
  const current = {
    planId: 'plan-starter',
    planName: 'Starter',
    periodStartDate: '2026-12-23T06:00:00.000Z',
    periodEndDate: '2027-01-22T06:00:00.000Z',
    endDate: '2027-01-22T06:00:00.000Z',
    daysLeft: 50,
    queued: [],
  };
  const data: PlansResponse['data'] = {
    plans: testPlans,
    current: none ? null : current,
    purchases: testPlans.map((p) => ({
      planId: p._id,
      startDate: none ? '2026-12-03T06:00:00.000Z' : current.endDate,
      endDate: '2027-02-21T06:00:00.000Z',
      change: none ? 'new' : p._id === current.planId ? 'renewal' : 'upgrade',
      daysKept: none ? 0 : 50,
    })),
  };
  return jsonResponse(200, { success: true, data });
}
