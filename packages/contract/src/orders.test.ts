import { describe, expect, it } from 'vitest';
import { orderAmount, paiseToRupees, rupeesToPaise } from './money';
import { CreateOrderRequestSchema, OrderHistoryQuerySchema } from './orders';

describe('CreateOrderRequestSchema amount (rupees)', () => {
  it('takes whole paise and refuses fractions of a paisa, zero and negatives', () => {
    const ok = (amount: number) =>
      CreateOrderRequestSchema.safeParse({ planId: 'p', amount }).success;
    expect(ok(6148.77)).toBe(true);
    expect(ok(0.01)).toBe(true);
    expect(ok(6148.775)).toBe(false);
    expect(ok(0)).toBe(false);
    expect(ok(-1)).toBe(false);
  });

  it('round-trips every total of a large catalogue exactly through rupees', () => {
    for (const base of [1, 333, 49_900, 4_999_00, 19_999_99, 99_99_99_999]) {
      const { totalPaise } = orderAmount(base);
      const rupees = paiseToRupees(totalPaise);
      expect(CreateOrderRequestSchema.safeParse({ planId: 'p', amount: rupees }).success).toBe(
        true,
      );
      expect(rupeesToPaise(rupees)).toBe(totalPaise);
    }
  });
});

describe('OrderHistoryQuerySchema', () => {
  it('defaults to the first page of 10 and takes a limit from 1 to 100 only', () => {
    expect(OrderHistoryQuerySchema.parse({})).toEqual({ limit: 10 });
    expect(OrderHistoryQuerySchema.parse({ limit: '1', cursor: 'abc' })).toEqual({
      limit: 1,
      cursor: 'abc',
    });
    expect(OrderHistoryQuerySchema.parse({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', '2.5', 'ten', '']) {
      const result = OrderHistoryQuerySchema.safeParse({ limit });
      expect(result.success, limit).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be a whole number from 1 to 100');
    }
  });

  it('refuses an empty or overlong cursor before anything decodes it', () => {
    for (const cursor of ['', 'a'.repeat(201)]) {
      const result = OrderHistoryQuerySchema.safeParse({ cursor });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be the nextCursor of an earlier page');
    }
    expect(OrderHistoryQuerySchema.safeParse({ cursor: 'a'.repeat(200) }).success).toBe(true);
  });
});
