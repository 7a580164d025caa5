import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** The two widths a screen's walk runs at: a desktop's, and a phone's with touch (UI.md). */
export const WIDTHS = [
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
] as const;

/** WCAG 2.5.5 and the screen conventions: a control on a touch screen is at least 44 × 44 px. */
export const MIN_TARGET_PX = 44;
/** ...with at least 8 px between controls. */
export const MIN_SPACING_PX = 8;

export interface LayoutReport {
  /** How far the page itself scrolls sideways. */
  overflow: number;
  /** Elements of a table or a list that stick out of the viewport, left or right. */
  outside: string[];
  /** Controls smaller than 44 × 44 px. */
  small: string[];
  /** Pairs of controls closer than 8 px to each other. */
  crowded: string[];
}

/**
 * Measures the page as it is now. A control hidden from everyone (display none, aria-hidden, or
 * visually hidden with a 1 px box) is left out; a checkbox or radio is measured with its label,
 * which is what a finger actually touches.
 */
export function layoutReport(page: Page): Promise<LayoutReport> {
  return page.evaluate(
    ({ minTarget, minSpacing }) => {
      const vw = window.innerWidth;
      const describe = (el: Element) => {
        const name =
          el.getAttribute('aria-label') ||
          (el as HTMLElement).innerText?.trim().replace(/\s+/g, ' ').slice(0, 40) ||
          el.getAttribute('name') ||
          el.getAttribute('type') ||
          '';
        return `${el.tagName.toLowerCase()}${name ? ` "${name}"` : ''}`;
      };
      const visuallyHidden = (r: DOMRect) => r.width <= 1 || r.height <= 1;
      const rendered = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) return false;
        if (getComputedStyle(el).visibility === 'hidden') return false;
        if (el.closest('[aria-hidden="true"], [inert]')) return false;
        for (let node: Element | null = el; node; node = node.parentElement) {
          // a toast stacked behind the front one shows nothing of itself
          if (getComputedStyle(node).opacity === '0') return false;
          // nor does anything inside a visually hidden box (a table's headings on a phone)
          if (node !== el && visuallyHidden(node.getBoundingClientRect())) return false;
        }
        return true;
      };

      const outside: string[] = [];
      for (const list of Array.from(
        document.querySelectorAll('table, ul, ol, dl, [role="list"]'),
      )) {
        for (const el of [list, ...Array.from(list.querySelectorAll('*'))]) {
          if (!rendered(el)) continue;
          const r = el.getBoundingClientRect();
          if (visuallyHidden(r)) continue;
          if (r.left < -0.5 || r.right > vw + 0.5) outside.push(describe(el));
        }
      }

      const controls = Array.from(
        document.querySelectorAll(
          'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="checkbox"], [role="radio"]',
        ),
      ).filter(rendered);
      const pinned = (el: Element) => {
        for (let node: Element | null = el; node; node = node.parentElement) {
          const position = getComputedStyle(node).position;
          if (position === 'fixed' || position === 'sticky') return node;
        }
        return null;
      };
      const targets: {
        el: Element;
        box: DOMRect;
        partlyHidden: boolean;
        text: boolean;
        layer: Element | null;
      }[] = [];
      for (const el of controls) {
        let box = el.getBoundingClientRect();
        if (el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type)) {
          for (const label of Array.from(el.labels ?? [])) {
            const r = label.getBoundingClientRect();
            if (r.width * r.height > box.width * box.height) box = r;
          }
        }
        // a control partly scrolled out of its scrolling box is no neighbour where it stands:
        // the customer scrolls it into view before touching it
        let partlyHidden = false;
        for (let node = el.parentElement; node; node = node.parentElement) {
          if (getComputedStyle(node).overflow === 'visible') continue;
          const clip = node.getBoundingClientRect();
          if (
            box.top < clip.top - 0.5 ||
            box.bottom > clip.bottom + 0.5 ||
            box.left < clip.left - 0.5 ||
            box.right > clip.right + 0.5
          ) {
            partlyHidden = true;
            break;
          }
        }
        if (visuallyHidden(box)) continue;
        const text =
          (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)) ||
          el instanceof HTMLTextAreaElement;
        targets.push({ el, box, partlyHidden, text, layer: pinned(el) });
      }
      const small = targets
        .filter(({ box }) => box.width < minTarget - 0.5 || box.height < minTarget - 0.5)
        .map(({ el, box }) => `${describe(el)} ${Math.round(box.width)}×${Math.round(box.height)}`);

      const crowded: string[] = [];
      for (let i = 0; i < targets.length; i++) {
        for (let j = i + 1; j < targets.length; j++) {
          const a = targets[i]!;
          const b = targets[j]!;
          if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
          if (a.partlyHidden || b.partlyHidden) continue;
          // a fixed header or bar and the page scrolling under it are not neighbours
          if (a.layer !== b.layer) continue;
          const inside = (inner: DOMRect, outer: DOMRect) =>
            inner.left >= outer.left - 0.5 &&
            inner.right <= outer.right + 0.5 &&
            inner.top >= outer.top - 0.5 &&
            inner.bottom <= outer.bottom + 0.5;
          // a show/hide toggle sits inside its text field by design
          if ((a.text && inside(b.box, a.box)) || (b.text && inside(a.box, b.box))) continue;
          const dx = Math.max(a.box.left - b.box.right, b.box.left - a.box.right, 0);
          const dy = Math.max(a.box.top - b.box.bottom, b.box.top - a.box.bottom, 0);
          const overlapX = a.box.left < b.box.right && b.box.left < a.box.right;
          const overlapY = a.box.top < b.box.bottom && b.box.top < a.box.bottom;
          const gap = overlapX ? dy : overlapY ? dx : Math.hypot(dx, dy);
          if (gap < minSpacing - 0.5)
            crowded.push(`${describe(a.el)} / ${describe(b.el)} ${Math.round(gap)} px`);
        }
      }

      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        outside,
        small,
        crowded,
      };
    },
    { minTarget: MIN_TARGET_PX, minSpacing: MIN_SPACING_PX },
  );
}

/** Nothing sticks out sideways, and (on a touch screen) every control is big and apart enough. */
export async function expectFitsScreen(page: Page, where: string, { touch }: { touch: boolean }) {
  const report = await layoutReport(page);
  expect(report.overflow, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  expect(report.outside, `${where}: table or list elements outside the viewport`).toEqual([]);
  if (touch) {
    expect(report.small, `${where}: controls smaller than 44 × 44 px`).toEqual([]);
    expect(report.crowded, `${where}: controls closer than 8 px`).toEqual([]);
  }
}

/**
 * A toast never covers a control that cannot be scrolled out from under it: the header, a sticky
 * bar, or anything in an open dialog.
 */
export async function expectToastsCoverNoControl(page: Page, where: string) {
  const covered = await page.evaluate(() => {
    const toasts = Array.from(document.querySelectorAll('[data-sonner-toast]')).map((t) =>
      t.getBoundingClientRect(),
    );
    /** The part of the element on screen: cut by every scrolling or clipping box around it. */
    const shown = (el: Element) => {
      let { left, top, right, bottom } = el.getBoundingClientRect();
      for (let node = el.parentElement; node; node = node.parentElement) {
        if (getComputedStyle(node).overflow === 'visible') continue;
        const clip = node.getBoundingClientRect();
        left = Math.max(left, clip.left);
        top = Math.max(top, clip.top);
        right = Math.min(right, clip.right);
        bottom = Math.min(bottom, clip.bottom);
      }
      return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom } : null;
    };
    const pinned = (el: Element) => {
      for (let node: Element | null = el; node; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === 'fixed' || position === 'sticky') return true;
      }
      return false;
    };
    const hits: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll('a[href], button, input, select, textarea'),
    )) {
      if (el.closest('[data-sonner-toaster]') || !pinned(el)) continue;
      const r = shown(el);
      if (!r) continue;
      if (
        toasts.some(
          (t) => t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom,
        )
      )
        hits.push(el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.tagName);
    }
    return hits;
  });
  expect(covered, `${where}: controls covered by a toast`).toEqual([]);
}

/**
 * No toast lies over `control` (a screen's main action in the page's flow, which the screen keeps
 * notices above while it is in the bottom of the window), the stack expanded as the pointer that
 * goes to press it expands it. Measured where the pointer is, not after Playwright's own wait for
 * the control to be clear, which would hide a notice that covers it now.
 */
export async function expectClearOfToasts(page: Page, control: Locator, where: string) {
  const box = (await control.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // sonner spreads the stack under the pointer, notices sliding as it does
  await page
    .locator('[data-sonner-toaster]')
    .evaluateAll((toasters) =>
      Promise.all(
        toasters.flatMap((t) => t.getAnimations({ subtree: true }).map((a) => a.finished)),
      ),
    );
  const toasts = await page
    .locator('[data-sonner-toast]')
    .evaluateAll((all) => all.map((t) => t.getBoundingClientRect().toJSON() as DOMRect));
  const over = toasts.filter(
    (t) =>
      t.left < box.x + box.width &&
      box.x < t.right &&
      t.top < box.y + box.height &&
      box.y < t.bottom,
  );
  expect(over, `${where}: toasts over the control`).toEqual([]);
}

/** Saves what the customer sees under e2e/test-results/screens/{project}/ for a reviewer. */
export async function saveScreen(page: Page, testInfo: TestInfo, name: string) {
  const dir = path.resolve(import.meta.dirname, '../test-results/screens', testInfo.project.name);
  mkdirSync(dir, { recursive: true });
  // from the top, so that the sticky header and fixed bars sit where the customer first sees them
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
