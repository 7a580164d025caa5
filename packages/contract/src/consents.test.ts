import { describe, expect, it } from 'vitest';
import { ConsentListQuerySchema } from './consents';
import { CONSENT_SEARCH_MAX_LENGTH } from './values';

const base = { userId: 'c5a1f0de-0000-4000-8000-000000000001' };

describe('ConsentListQuerySchema', () => {
  it('keeps a search as typed, trimmed, wildcards and all', () => {
    expect(ConsentListQuerySchema.parse({ ...base, search: '  50%_off  ' }).search).toBe('50%_off');
  });

  it('refuses a search longer than the limit, naming the field', () => {
    const result = ConsentListQuerySchema.safeParse({
      ...base,
      search: 'a'.repeat(CONSENT_SEARCH_MAX_LENGTH + 1),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('search');
  });

  it('refuses control characters in a search', () => {
    expect(ConsentListQuerySchema.safeParse({ ...base, search: 'a\u0000b' }).success).toBe(false);
  });

  it('takes a cursor as given, and refuses an empty or overlong one with a message', () => {
    expect(ConsentListQuerySchema.parse({ ...base, after: 'abc' }).after).toBe('abc');
    for (const bad of [{ after: '' }, { before: 'x'.repeat(501) }]) {
      const result = ConsentListQuerySchema.safeParse({ ...base, ...bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/cursor/);
    }
  });
});
