import { useEffect, useRef, useSyncExternalStore, type FocusEvent, type RefObject } from 'react';
import { Toaster as Sonner } from 'sonner';
import { NOTICE_DURATION_MS } from '@portal/contract';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';

const GAP_PX = 16;

/** Room kept free at the bottom of the screen by a bar's controls, so toasts sit above them. */
let barHeight = 0;
const listeners = new Set<() => void>();
const setBarHeight = (height: number) => {
  barHeight = height;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** How far up from the bottom of the window notices reach: the offset and two stacked notices. */
const NOTICE_ZONE_PX = 160;

/**
 * A bar whose controls notices must not cover keeps them above itself: when it is fixed to the
 * bottom of the screen (a phone), by its height; in the page's flow (a desktop), whenever it
 * reaches into the bottom of the window where notices stack, as the page scrolls or moves.
 */
export function useToastsAbove(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const { top, bottom, height } = element.getBoundingClientRect();
      if (getComputedStyle(element).position === 'fixed') return setBarHeight(height);
      const shown = window.innerHeight - top;
      setBarHeight(shown > 0 && bottom > window.innerHeight - NOTICE_ZONE_PX ? shown + GAP_PX : 0);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // what loads above the bar moves it down without resizing it
    observer.observe(document.body);
    // any scrolling element, the window's included
    document.addEventListener('scroll', measure, { capture: true, passive: true });
    window.addEventListener('resize', measure);
    measure();
    return () => {
      observer.disconnect();
      document.removeEventListener('scroll', measure, { capture: true });
      window.removeEventListener('resize', measure);
      setBarHeight(0);
    };
  }, [bar]);
}

/**
 * Sonner gives focus back to where it was before the notices as soon as focus leaves them. That
 * suits Alt+T, which moves focus to the list of notices itself, but it traps Tab: from the last
 * notice, Tab lands on the control before them (or on the first notice) again, for as long as
 * notices show (WCAG 2.1.2). So Sonner is told of focus within the notices only during a visit
 * that began on the list itself; one that began by Tab or Shift+Tab goes on through the page.
 */
function useTabPassesNotices() {
  const byHotkey = useRef(false);
  const onFocusCapture = (event: FocusEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const list = target.closest('[data-sonner-toaster]');
    if (!list) return;
    if (target === list) byHotkey.current = true;
    else if (!list.contains(event.relatedTarget as Node | null)) byHotkey.current = false;
    if (!byHotkey.current) event.stopPropagation();
  };
  return { onFocusCapture };
}

/**
 * Where notices appear: bottom right on a desktop, bottom centre on a phone, above a bar whose
 * controls they would cover (`useToastsAbove`), so that they never cover the header or a control. Sonner's region is
 * a polite live region, and Alt+T moves focus to it.
 */
export function Toaster() {
  const phone = useMediaQuery(PHONE_QUERY);
  const bar = useSyncExternalStore(subscribe, () => barHeight);
  const tabPasses = useTabPassesNotices();
  return (
    <div className="contents" {...tabPasses}>
      <Sonner
        position={phone ? 'bottom-center' : 'bottom-right'}
        duration={NOTICE_DURATION_MS}
        richColors
        offset={{ bottom: 24 + bar, right: 24 }}
        mobileOffset={{ bottom: GAP_PX + bar, left: GAP_PX, right: GAP_PX }}
      />
    </div>
  );
}
