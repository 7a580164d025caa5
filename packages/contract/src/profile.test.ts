import { describe, expect, it } from 'vitest';
import { ProfileResponseSchema, UserSchema } from './profile';

describe('the profile module', () => {
  it('reads a profile with its plan, and one without', () => {
    const user = {
      _id: 'u1',
      id: 'u1',
      company_name: 'Acme Traders Pvt Ltd',
      email: 'a@b.co',
      mobile: '9876543210',
      gstNo: '27AAPFU0939F1ZV',
      category: null,
      tally_serialno: 'TS-1',
      tally_version: null,
      customer_type: 'Business',
      created_at: '2026-01-01T00:00:00.000Z',
      plan: null,
    };
    expect(UserSchema.parse(user)).toEqual(user);
    expect(
      ProfileResponseSchema.safeParse({ success: true, message: 'ok', data: { user } }).success,
    ).toBe(true);
    expect(UserSchema.safeParse({ ...user, plan: { planName: 'Gold' } }).success).toBe(false);
  });
});
