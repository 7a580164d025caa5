import { clsx, type ClassValue } from 'clsx';

/*
 * Joins class names, and of two Tailwind utilities that set the same thing under the same
 * variants, keeps the later one, so that a caller's class overrides a component's own
 * (`md:min-w-0` after `md:min-w-max`). What tailwind-merge does, for the utilities this app
 * uses (cn.test.ts holds it to tailwind-merge on every pair of them), at a fraction of its
 * weight: cn is on the sign-in screen's first load.
 */

const SIZES = /^(xs|sm|base|md|lg|xl|[2-9]xl)$/;
const NUMBER = /^(\d+(\.\d+)?|px)$/;

/** Groups that a utility of the key's group also sets (p-4 sets px and pt, among others). */
const OVERRIDES: Record<string, string[]> = {
  p: ['px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl'],
  px: ['pr', 'pl'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml'],
  mx: ['mr', 'ml'],
  my: ['mt', 'mb'],
  inset: ['inset-x', 'inset-y', 'start', 'end', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['right', 'left'],
  'inset-y': ['top', 'bottom'],
  gap: ['gap-x', 'gap-y'],
  size: ['w', 'h'],
  rounded: ['rounded-t', 'rounded-r', 'rounded-b', 'rounded-l'],
  'border-w': ['border-w-x', 'border-w-y', 'border-w-t', 'border-w-r', 'border-w-b', 'border-w-l'],
  'border-w-x': ['border-w-r', 'border-w-l'],
  'border-w-y': ['border-w-t', 'border-w-b'],
  'font-size': ['leading'],
  overflow: ['overflow-x', 'overflow-y'],
  flex: ['basis', 'grow', 'shrink'],
};

/** Whole utilities that make up a group by themselves. */
const KEYWORDS: Record<string, string> = {};
const keywords = (group: string, names: string) => {
  for (const name of names.split(' ')) KEYWORDS[name] = group;
};
keywords(
  'display',
  'block inline-block inline flex inline-flex grid inline-grid table contents hidden',
);
keywords('position', 'static fixed absolute relative sticky');
keywords('sr', 'sr-only not-sr-only');
keywords('resize', 'resize resize-none resize-x resize-y');
keywords('visibility', 'visible invisible collapse');
keywords('text-overflow', 'truncate text-ellipsis text-clip');
keywords('text-decoration', 'underline overline line-through no-underline');
keywords('text-transform', 'uppercase lowercase capitalize normal-case');
keywords('font-style', 'italic not-italic');
keywords('fvn-spacing', 'tabular-nums proportional-nums');
keywords('flex-direction', 'flex-row flex-row-reverse flex-col flex-col-reverse');
keywords('flex-wrap', 'flex-wrap flex-wrap-reverse flex-nowrap');
keywords('break', 'break-normal break-words break-all break-keep');
keywords('transition', 'transition transition-none transition-all transition-colors');
keywords('transition', 'transition-opacity transition-shadow transition-transform');

/** The group of a value after a prefix whose utilities set different things by value. */
function byValue(prefix: string, value: string): string {
  const color = `${prefix}-color`;
  switch (prefix) {
    case 'text':
      if (SIZES.test(value)) return 'font-size';
      if (/^(left|center|right|justify|start|end)$/.test(value)) return 'text-alignment';
      if (/^(wrap|nowrap|balance|pretty)$/.test(value)) return 'text-wrap';
      return color;
    case 'font':
      if (/^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/.test(value)) {
        return 'font-weight';
      }
      return 'font-family';
    case 'shadow':
      return value === '' || SIZES.test(value) || value === 'none' || value.startsWith('[')
        ? 'shadow'
        : color;
    case 'ring':
      return value === '' || NUMBER.test(value) ? 'ring-w' : color;
    case 'outline':
      if (value === '' || NUMBER.test(value)) return 'outline-w';
      if (/^(none|solid|dashed|dotted|double|hidden)$/.test(value)) return 'outline-style';
      if (value.startsWith('offset-')) return 'outline-offset';
      return color;
    case 'divide':
      if (/^[xy](-|$)/.test(value)) return `divide-${value[0]}`;
      return color;
    default:
      return color;
  }
}

/** The group a utility belongs to; undefined for a class no other one overrides. */
function groupOf(utility: string): string | undefined {
  const keyword = KEYWORDS[utility];
  if (keyword) return keyword;
  const border = /^border(?:-([xytrbl]))?(?:-(.+))?$/.exec(utility);
  if (border) {
    const [, side, value = ''] = border;
    const at = side ? `-${side}` : '';
    if (value === '' || NUMBER.test(value)) return `border-w${at}`;
    if (!side && /^(solid|dashed|dotted|double|hidden|none)$/.test(value)) return 'border-style';
    return `border-color${at}`;
  }
  const rounded = /^rounded(?:-([trbl]))?(?:-|$)/.exec(utility);
  if (rounded) return rounded[1] ? `rounded-${rounded[1]}` : 'rounded';
  const spacing = /^([pm])([xysetrbl])?-/.exec(utility);
  if (spacing) return spacing[1]! + (spacing[2] ?? '');
  const prefixed =
    /^(text|font|shadow|ring|outline|divide|bg)-(.*)$/.exec(utility) ??
    /^(shadow|ring|outline)()$/.exec(utility);
  if (prefixed) return byValue(prefixed[1]!, prefixed[2]!);
  const named =
    /^(inset-[xy]|inset|top|right|bottom|left|start|end|gap-[xy]|gap|space-[xy]|min-w|min-h|max-w|max-h|size|w|h|z|opacity|order|grid-cols|grid-rows|col|row|items|justify|self|place-content|place-items|align|cursor|pointer-events|select|overflow-[xy]|overflow|whitespace|leading|tracking|animate|accent|underline-offset|translate-[xy]|scale|rotate|shrink|grow|basis|flex|duration|ease|delay|object|aspect|columns|line-clamp|list|decoration)(?:-|$)/.exec(
      utility,
    );
  if (!named) return undefined;
  const name = named[1]!;
  // col-span-2 and col-start-1 both place the column; shrink-0 and shrink likewise
  return name === 'col' || name === 'row' ? `${name}-start-end` : name;
}

/** The variants (sorted, so `md:hover:` is `hover:md:`) and the utility of a class. */
function parse(className: string) {
  const parts = className.split(/:(?![^[]*\])/);
  let utility = parts.pop()!;
  const important = utility.startsWith('!') || utility.endsWith('!');
  utility = utility.replace(/^!|!$/g, '').replace(/^-/, '');
  const variants = parts.sort().join(':') + (important ? '!' : '');
  return { variants, group: groupOf(utility) };
}

const parsed = new Map<string, ReturnType<typeof parse>>();

function merge(classes: string): string {
  const kept: string[] = [];
  const taken = new Set<string>();
  // from the last class back: a class goes when a later one has set its group already
  for (const className of classes.split(/\s+/).reverse()) {
    if (!className) continue;
    let info = parsed.get(className);
    if (!info) parsed.set(className, (info = parse(className)));
    const { variants, group } = info;
    if (group) {
      const key = `${variants}|${group}`;
      if (taken.has(key)) continue;
      taken.add(key);
      for (const overridden of OVERRIDES[group] ?? []) taken.add(`${variants}|${overridden}`);
    }
    kept.push(className);
  }
  return kept.reverse().join(' ');
}

/** Merged class lists by their input: a screen asks for the same few lists on every render. */
const merged = new Map<string, string>();
/** Enough for every list the app renders; a bound, should something build lists endlessly. */
const MERGED_KEPT = 1_000;

export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  let result = merged.get(classes);
  if (result === undefined) {
    if (merged.size >= MERGED_KEPT) merged.clear();
    merged.set(classes, (result = merge(classes)));
  }
  return result;
}
