import { describe, expect, it } from 'vitest';
import { orderAmount, paiseToRupees, rupeesToPaise } from './money';
import { CreateOrderRequestSchema } from './orders';

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
