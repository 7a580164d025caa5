import { describe, expect, it } from 'vitest';
import type { PlanStanding, PurchaseOutcome } from '@portal/contract';
import { purchaseExplanation } from './purchase-explanation';

const current: PlanStanding = {
  planId: 'starter',
  planName: 'Starter',
  periodStartDate: '2026-06-01T10:00:00.000Z',
  periodEndDate: '2026-07-01T10:00:00.000Z',
  endDate: '2026-07-01T10:00:00.000Z',
  daysLeft: 20,
  queued: [],
};

const outcome = (over: Partial<PurchaseOutcome>): PurchaseOutcome => ({
  planId: 'business',
  startDate: '2026-07-01T10:00:00.000Z',
  endDate: '2026-12-28T10:00:00.000Z',
  change: 'upgrade',
  daysKept: 20,
  ...over,
});

describe('purchaseExplanation', () => {
  it('says an upgrade starts when the current plan ends and that the days left are not credited', () => {
    expect(purchaseExplanation({ planName: 'Business' }, current, outcome({}))).toBe(
      'Upgrade to Business: starts 01/07/2026, when your current plan ends, and runs until 28/12/2026. Your Starter plan stays in force until then. The 20 days left on your current plan are kept, not credited, and the full price is charged.',
    );
  });

  it('says a renewal runs on from the end, and another plan starts then', () => {
    expect(
      purchaseExplanation(
        { planName: 'Starter' },
        current,
        outcome({ change: 'renewal', endDate: '2026-07-31T10:00:00.000Z', daysKept: 1 }),
      ),
    ).toBe(
      'Renewal: Starter runs on from 01/07/2026, when your current plan ends, until 31/07/2026. The 1 day left on your current plan is kept, not credited, and the full price is charged.',
    );
    expect(
      purchaseExplanation({ planName: 'Professional' }, current, outcome({ change: 'change' })),
    ).toMatch(/^Professional: starts 01\/07\/2026, when your current plan ends/);
  });

  it('says a first plan starts when paid for', () => {
    expect(
      purchaseExplanation(
        { planName: 'Starter' },
        null,
        outcome({ change: 'new', endDate: '2026-07-01T10:00:00.000Z', daysKept: 0 }),
      ),
    ).toBe('Starter starts when you pay and runs until 01/07/2026.');
  });
});
