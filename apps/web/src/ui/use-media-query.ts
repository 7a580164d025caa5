import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, following its changes; false where it cannot be asked. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
  );
}

/** Below 768 px: tables become cards, toasts go bottom centre. */
export const PHONE_QUERY = '(max-width: 767.98px)';
