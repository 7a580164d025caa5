import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';

/**
 * Every word of every string in the app's source that tailwind-merge takes for a Tailwind
 * utility (of a word twice, it keeps one).
 */
const sources = import.meta.glob(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const classNames = [
  ...new Set(
    Object.values(sources).flatMap((source) =>
      [...source.matchAll(/(['"`])((?:(?!\1)[^\\\n])*)\1/g)].flatMap(([, , text]) =>
        text!.split(/\s+/).filter((word) => /^!?-?[a-z][\w:/.[\]()%#,=&>*!-]*$/.test(word)),
      ),
    ),
  ),
].filter((word) => twMerge(`${word} ${word}`) === word);
const variantsOf = (className: string) =>
  className
    .split(/:(?![^[]*\])/)
    .slice(0, -1)
    .sort()
    .join(':');

describe('cn', () => {
  it('finds the classes of the app in its source', () => {
    expect(classNames).toEqual(
      expect.arrayContaining(['md:min-w-max', 'md:min-w-0', 'border-slate-300', 'px-3', 'text-sm']),
    );
    expect(classNames.length).toBeGreaterThan(300);
  });

  it('lets the later of two classes win as tailwind-merge does, for every pair the app has', () => {
    const byVariants = new Map<string, string[]>();
    for (const className of classNames) {
      const variants = variantsOf(className);
      byVariants.set(variants, [...(byVariants.get(variants) ?? []), className]);
    }
    const differences: string[] = [];
    for (const group of byVariants.values()) {
      for (const first of group) {
        for (const second of group) {
          const pair = `${first} ${second}`;
          if (cn(pair) !== twMerge(pair))
            differences.push(`${pair} → ${cn(pair)}, not ${twMerge(pair)}`);
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it("lets a caller's class override a component's own", () => {
    expect(cn('w-full text-left text-sm max-md:block md:min-w-max', 'md:min-w-0')).toBe(
      'w-full text-left text-sm max-md:block md:min-w-0',
    );
    expect(
      cn('h-10 rounded-md border border-slate-300 px-3', false, 'pl-10', 'border-red-600'),
    ).toBe('h-10 rounded-md border px-3 pl-10 border-red-600');
    expect(cn('p-5', { 'px-2': true, hidden: false })).toBe('p-5 px-2');
    expect(cn('px-2 py-1', 'p-5')).toBe('p-5');
  });

  it('answers the same for a list it has merged before, also after many others', () => {
    const list = 'px-2 py-1 text-sm p-5';
    expect(cn(list)).toBe('text-sm p-5');
    for (let i = 0; i < 2_500; i++) expect(cn(`w-${i} w-full`)).toBe('w-full');
    expect(cn(list)).toBe('text-sm p-5');
    expect(cn('px-2 py-1', 'text-sm', 'p-5')).toBe('text-sm p-5');
  });
});
