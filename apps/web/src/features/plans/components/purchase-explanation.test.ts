import { describe, expect, it } from 'vitest';
import type { PlanStanding, PurchaseOutcome } from '@portal/contract';
import { isDowngrade, purchaseExplanation } from './purchase-explanation';

const current: PlanStanding = {
  planId: 'starter',
  planName: 'Starter',
  periodStartDate: '2026-06-01T10:00:00.000Z',
  periodEndDate: '2026-07-01T10:00:00.000Z',
  endDate: '2026-07-01T10:00:00.000Z',
  daysLeft: 20,
  queued: [],
};

const starter = { noOfCompany: 1 };

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
    expect(
      purchaseExplanation({ planName: 'Business', noOfCompany: 5 }, current, outcome({}), starter),
    ).toBe(
      'Upgrade to Business. Your current plan stays until 01/07/2026. The Business plan starts then. It runs until 28/12/2026. The 20 days left on your current plan are kept, not credited, and the full price is charged.',
    );
  });

  it('says a downgrade to fewer companies waits for the plan in force, and by how many', () => {
    expect(
      purchaseExplanation(
        { planName: 'Solo', noOfCompany: 1 },
        { ...current, planName: 'Business' },
        outcome({ change: 'change', daysKept: 1 }),
        { noOfCompany: 5 },
      ),
    ).toBe(
      'Downgrade to Solo: 1 company instead of 5 companies. Your current plan stays until 01/07/2026. The Solo plan starts then. It runs until 28/12/2026. The 1 day left on your current plan is kept, not credited, and the full price is charged.',
    );
    expect(isDowngrade({ planName: 'Solo', noOfCompany: 1 }, { noOfCompany: 2 })).toBe(true);
    expect(isDowngrade({ planName: 'Solo', noOfCompany: 2 }, { noOfCompany: 2 })).toBe(false);
    expect(isDowngrade({ planName: 'Solo', noOfCompany: 1 }, undefined)).toBe(false);
  });

  it('says a renewal runs on from the end, and another plan starts then', () => {
    expect(
      purchaseExplanation(
        { planName: 'Starter', noOfCompany: 1 },
        current,
        outcome({ change: 'renewal', endDate: '2026-07-31T10:00:00.000Z', daysKept: 1 }),
      ),
    ).toBe(
      'Renewal: Starter runs on from 01/07/2026, when your current plan ends, until 31/07/2026. The 1 day left on your current plan is kept, not credited, and the full price is charged.',
    );
    // another plan of as many companies, or against a plan in force no longer on offer
    for (const inForce of [starter, undefined]) {
      expect(
        purchaseExplanation(
          { planName: 'Professional', noOfCompany: 1 },
          current,
          outcome({ change: 'change' }),
          inForce,
        ),
      ).toMatch(
        /^Change to Professional\. Your current plan stays until 01\/07\/2026\. The Professional plan starts then\. It runs until 28\/12\/2026\./,
      );
    }
  });

  it('says a first plan starts when paid for', () => {
    expect(
      purchaseExplanation(
        { planName: 'Starter', noOfCompany: 1 },
        null,
        outcome({ change: 'new', endDate: '2026-07-01T10:00:00.000Z', daysKept: 0 }),
      ),
    ).toBe('Starter starts when you pay and runs until 01/07/2026.');
  });
});
