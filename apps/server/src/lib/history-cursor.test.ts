import { describe, expect, it } from 'vitest';
import { ORDER_CURSOR_MESSAGE } from '@portal/contract';
import { decodeCursor, encodeCursor } from './history-cursor';

const ID = '4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5f';
const AT = '2026-06-01T10:00:00.123456Z';
const raw = (text: string) => Buffer.from(text).toString('base64url');

describe('a history cursor', () => {
  it('is base64url of `created_at|id`, and names the same place back', () => {
    const cursor = encodeCursor({ createdAt: AT, id: ID });
    expect(cursor).toBe(raw(`${AT}|${ID}`));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt: AT, id: ID });
  });

  it('refuses with a 400 what no page gave out', () => {
    for (const text of [
      '',
      AT,
      `${AT}|`,
      `${AT}|${ID}|more`,
      `${AT}|not-an-id`,
      // six decimals, in UTC, exactly
      `2026-06-01T10:00:00.123Z|${ID}`,
      `2026-06-01T10:00:00.1234567Z|${ID}`,
      `2026-06-01T10:00:00.123456+05:30|${ID}`,
      `x2026-06-01T10:00:00.123456Z|${ID}`,
      `2026-06-01T10:00:00.123456Zx|${ID}`,
      // a day that no calendar has
      `2026-02-30T10:00:00.123456Z|${ID}`,
    ]) {
      expect(() => decodeCursor(raw(text)), text).toThrow(
        expect.objectContaining({
          statusCode: 400,
          error: 'validation',
          message: `cursor: ${ORDER_CURSOR_MESSAGE}`,
        }),
      );
    }
  });

  it('refuses with the message it is given, and lets text after the id through when told', () => {
    expect(() => decodeCursor(raw(AT), 'cursor: is not valid')).toThrow(
      expect.objectContaining({ statusCode: 400, message: 'cursor: is not valid' }),
    );
    expect(decodeCursor(raw(`${AT}|${ID}|more`), 'cursor: is not valid', 'ignored')).toEqual({
      createdAt: AT,
      id: ID,
    });
  });
});
