import { describe, expect, it } from 'vitest';
import type { Consent, Order } from '@portal/contract';
import {
  dashboardActivity,
  dashboardCounters,
  recentActivity,
  recentOrders,
} from './dashboard-data';

const consent = (id: string, consentStatus: string, createdAt: string) =>
  ({
    _id: id,
    consentId: `CNS-${id}`,
    consentStatus: consentStatus as Consent['consentStatus'],
    partnerName: `Partner ${id}`,
    createdAt,
  }) satisfies Partial<Consent>;

const order = (id: string, paymentStatus: string, orderDate: string) =>
  ({
    _id: id,
    planId: { _id: `plan-${id}`, planName: `Plan ${id}` },
    formattedAmount: '₹1,230.00',
    orderDate,
    paymentStatus: paymentStatus as Order['paymentStatus'],
  }) satisfies Partial<Order>;

const user = { company_name: 'Acme Traders', created_at: '2026-01-01T00:00:00.000Z' };
const now = new Date('2026-11-21T00:00:00.000Z');

describe('dashboardCounters', () => {
  const counts = {
    totalConsents: 5,
    activeConsents: 2,
    pendingConsents: 1,
    expiredConsents: 1,
    rejectedConsents: 1,
    totalPlans: 4,
    totalOrders: 5,
    completedOrders: 2,
    pendingOrders: 1,
    failedOrders: 1,
  };

  it("shows the server's counts, with the plans the catalogue holds", () => {
    expect(dashboardCounters(counts, [{}, {}, {}])).toEqual({
      totalConsents: 5,
      activeConsents: 2,
      pendingConsents: 1,
      expiredConsents: 1,
      totalPlans: 3,
      totalOrders: 5,
      completedOrders: 2,
      pendingOrders: 1,
      failedOrders: 1,
    });
  });

  it('gives zeroes for nothing, and null plans when the plans did not load', () => {
    expect(dashboardCounters(undefined, undefined)).toEqual({
      totalConsents: 0,
      activeConsents: 0,
      pendingConsents: 0,
      expiredConsents: 0,
      totalPlans: null,
      totalOrders: 0,
      completedOrders: 0,
      pendingOrders: 0,
      failedOrders: 0,
    });
    expect(dashboardCounters(counts, []).totalPlans).toBe(0);
  });
});

describe('dashboardActivity', () => {
  const consents = [
    consent('c1', 'Approved', '2026-05-10T10:00:00.000Z'),
    consent('c2', 'Rejected', '2026-05-01T10:00:00.000Z'),
    consent('c3', 'Pending', '2026-06-01T10:00:00.000Z'),
  ];
  const orders = [
    order('o1', 'Completed', '2026-05-05T10:00:00.000Z'),
    order('o2', 'Refunded', '2026-05-20T10:00:00.000Z'),
    order('o3', 'Pending', '2026-06-02T10:00:00.000Z'),
  ];

  it('takes the first 2 consents, the first 2 orders and a welcome, newest first', () => {
    const items = dashboardActivity({ consents, orders, user, now });
    expect(items.map((i) => i.id)).toEqual([
      'order-o2',
      'consent-c1',
      'order-o1',
      'consent-c2',
      'welcome',
    ]);
    expect(items.at(-1)).toMatchObject({
      type: 'profile',
      date: user.created_at,
      status: 'success',
    });
  });

  it('cuts the list to 4 for All Recent Activity, and keeps the orders for Recent Orders', () => {
    const items = dashboardActivity({ consents, orders, user, now });
    expect(recentActivity(items).map((i) => i.id)).toEqual([
      'order-o2',
      'consent-c1',
      'order-o1',
      'consent-c2',
    ]);
    expect(recentOrders(items).map((i) => i.id)).toEqual(['order-o2', 'order-o1']);
  });

  it('maps statuses as spec §4 says: consents and orders alike', () => {
    const statusOf = (items: ReturnType<typeof dashboardActivity>, id: string) =>
      items.find((i) => i.id === id)?.status;
    const consentItems = dashboardActivity({
      consents: [consent('a', 'Approved', '2026-01-02'), consent('p', 'Pending', '2026-01-03')],
      user,
      now,
    });
    expect(statusOf(consentItems, 'consent-a')).toBe('success');
    expect(statusOf(consentItems, 'consent-p')).toBe('pending');
    const otherConsents = dashboardActivity({
      consents: [consent('r', 'Rejected', '2026-01-02'), consent('e', 'Expired', '2026-01-03')],
      user,
      now,
    });
    expect(statusOf(otherConsents, 'consent-r')).toBe('failed');
    expect(statusOf(otherConsents, 'consent-e')).toBe('failed');

    const orderItems = dashboardActivity({
      orders: [order('c', 'Completed', '2026-01-02'), order('p', 'Pending', '2026-01-03')],
      user,
      now,
    });
    expect(statusOf(orderItems, 'order-c')).toBe('success');
    expect(statusOf(orderItems, 'order-p')).toBe('pending');
    const otherOrders = dashboardActivity({
      orders: [order('f', 'Failed', '2026-01-02'), order('r', 'Refunded', '2026-01-03')],
      user,
      now,
    });
    expect(statusOf(otherOrders, 'order-f')).toBe('failed');
    expect(statusOf(otherOrders, 'order-r')).toBe('failed');
  });

  it('still welcomes a customer with nothing yet, dated now when the account date is missing', () => {
    const items = dashboardActivity({ now });
    expect(items).toEqual([expect.objectContaining({ id: 'welcome', date: now.toISOString() })]);
    expect(recentOrders(items)).toEqual([]);
  });
});
