import { describe, expect, it } from 'vitest';
import { createTestClock } from '../test/clock';
import { AppError } from './errors';
import { createSignedLinks } from './signed-links';

const parse = (link: string) => Object.fromEntries(new URL(link, 'http://x').searchParams);

/** Refused as not valid: a 403 that says so, never another kind of error. */
function expectNotValid(verify: () => unknown) {
  expect(verify).toThrow(
    expect.objectContaining({
      constructor: AppError,
      code: 'FORBIDDEN',
      message: 'This link is not valid.',
    }),
  );
}

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

  it('works up to and at the second it expires, and is refused a millisecond after', () => {
    clock.set(new Date('2026-06-01T10:00:00.000Z'));
    const query = parse(links.sign('/p', 'c', 600));
    expect(query.expires).toBe(String(Date.parse('2026-06-01T10:10:00.000Z') / 1000));
    clock.set(new Date('2026-06-01T10:09:59.999Z'));
    expect(links.verify('/p', query)).toBe('c');
    // the expiry is the last instant the link works: refused once it has passed
    clock.set(new Date('2026-06-01T10:10:00.000Z'));
    expect(links.verify('/p', query)).toBe('c');
    clock.set(new Date('2026-06-01T10:10:00.001Z'));
    expect(() => links.verify('/p', query)).toThrow(/expired/);
  });

  it('rounds the signing time down to the second: a link never outlives its lifetime', () => {
    // signed 999 ms into a second, the link expires 600 s after the start of that second
    clock.set(new Date('2026-06-01T10:00:00.999Z'));
    const query = parse(links.sign('/p', 'c', 600));
    expect(query.expires).toBe(String(Date.parse('2026-06-01T10:10:00.000Z') / 1000));
    clock.set(new Date('2026-06-01T10:09:59.999Z'));
    expect(links.verify('/p', query)).toBe('c');
    clock.set(new Date('2026-06-01T10:10:00.001Z'));
    expect(() => links.verify('/p', query)).toThrow(/expired/);
  });

  it('refuses a missing signature', () => {
    expectNotValid(() => links.verify('/p', {}));
  });

  it('refuses a signature of another length, or altered, as not valid', () => {
    const query = parse(links.sign('/p', 'c', 60));
    // compared in constant time only once the lengths agree: a shorter or longer one is refused
    // before, not thrown at as a mismatch of buffers
    expectNotValid(() => links.verify('/p', { ...query, sig: query.sig!.slice(1) }));
    expectNotValid(() => links.verify('/p', { ...query, sig: `${query.sig}A` }));
    const altered = `${query.sig!.startsWith('A') ? 'B' : 'A'}${query.sig!.slice(1)}`;
    expectNotValid(() => links.verify('/p', { ...query, sig: altered }));
    expectNotValid(() => links.verify('/p', { ...query, sub: 'd' }));
  });
});
