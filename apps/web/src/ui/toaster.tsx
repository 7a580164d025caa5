import { useEffect, useSyncExternalStore, type RefObject } from 'react';
import { Toaster as Sonner } from 'sonner';
import { NOTICE_DURATION_MS } from '@portal/contract';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';

/** Room kept free at the bottom of the screen by a fixed bar, so toasts sit above it. */
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

/** A bar fixed to the bottom of the screen (when it is fixed) keeps toasts above itself. */
export function useToastsAbove(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () =>
      setBarHeight(
        getComputedStyle(element).position === 'fixed' ? element.getBoundingClientRect().height : 0,
      );
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => {
      observer.disconnect();
      setBarHeight(0);
    };
  }, [bar]);
}

const GAP_PX = 16;

/**
 * Where notices appear: bottom right on a desktop, bottom centre on a phone, above a fixed bar
 * when one is shown, so that they never cover the header or a bar's controls. Sonner's region is
 * a polite live region, and Alt+T moves focus to it.
 */
export function Toaster() {
  const phone = useMediaQuery(PHONE_QUERY);
  const bar = useSyncExternalStore(subscribe, () => barHeight);
  return (
    <Sonner
      position={phone ? 'bottom-center' : 'bottom-right'}
      duration={NOTICE_DURATION_MS}
      richColors
      offset={{ bottom: 24 + bar, right: 24 }}
      mobileOffset={{ bottom: GAP_PX + bar, left: GAP_PX, right: GAP_PX }}
    />
  );
}
