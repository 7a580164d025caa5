import { describe, expect, it } from 'vitest';
import { maskEmail } from './mask-email';

describe('maskEmail', () => {
  it('keeps the first letter and the domain, and hides the rest of the mailbox', () => {
    expect(maskEmail('demo@acme.example')).toBe('d***@acme.example');
    expect(maskEmail('d@acme.example')).toBe('d***@acme.example');
  });

  it('hides a quoted mailbox holding an @ up to the last one', () => {
    expect(maskEmail('"a@b"@acme.example')).toBe('"***@acme.example');
  });

  it('hides everything of something that is no address', () => {
    expect(maskEmail('nobody')).toBe('***');
    expect(maskEmail('@acme.example')).toBe('***');
  });
});
