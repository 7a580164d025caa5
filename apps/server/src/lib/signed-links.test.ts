import { describe, expect, it } from 'vitest';
import { createTestClock } from '../test/clock';
import { AppError } from './errors';
import { createSignedLinks } from './signed-links';

const parse = (link: string) => Object.fromEntries(new URL(link, 'http://x').searchParams);

describe('signed links', () => {
  const clock = createTestClock();
  const links = createSignedLinks('s'.repeat(40), clock);

  it('gives back the subject of a fresh link', () => {
    const link = links.sign('/api/files/a.pdf', 'customer-1', 60);
    expect(links.verify('/api/files/a.pdf', parse(link))).toBe('customer-1');
  });

  it('keeps a subject that must be escaped in a URL, and signs it as given', () => {
    const subject = 'a b&sub=c/é+%';
    const query = parse(links.sign('/p', subject, 60));
    expect(query.sub).toBe(subject);
    expect(links.verify('/p', query)).toBe(subject);
    expect(() => links.verify('/p', { ...query, sub: 'a b' })).toThrow(AppError);
  });

  it('signs with the secret it was given', () => {
    const query = parse(links.sign('/p', 'c', 60));
    expect(() => createSignedLinks('t'.repeat(40), clock).verify('/p', query)).toThrow(AppError);
  });

  it('refuses a link for another path or subject', () => {
    const query = parse(links.sign('/api/files/a.pdf', 'customer-1', 60));
    expect(() => links.verify('/api/files/b.pdf', query)).toThrow(AppError);
    expect(() => links.verify('/api/files/a.pdf', { ...query, sub: 'customer-2' })).toThrow(
      AppError,
    );
  });

  it('refuses an expired link', () => {
    const query = parse(links.sign('/p', 'c', 60));
    clock.advance(61_000);
    expect(() => links.verify('/p', query)).toThrow(/expired/);
  });

  it('refuses a missing signature', () => {
    expect(() => links.verify('/p', {})).toThrow(AppError);
  });
});
