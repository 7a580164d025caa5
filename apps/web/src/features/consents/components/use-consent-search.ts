import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { withParam } from './search-params';

/** Typing settles for this long before the server is asked. */
const SEARCH_DELAY_MS = 300;

/**
 * The search the list shows, kept in the address (`?search=`), so that a link (a notification's,
 * say) can open the screen on one consent, and Back returns to the search before. The box
 * follows the address; what is typed reaches the address once typing settles.
 */
export function useConsentSearch(onApplied: () => void) {
  const [params, setParams] = useSearchParams();
  const applied = params.get('search')?.trim() ?? '';
  const [typed, setTyped] = useState(applied);
  const [shown, setShown] = useState(applied);
  if (applied !== shown) {
    setShown(applied);
    // a space still being typed stays; a search from elsewhere (a link, Back) replaces the box
    if (typed.trim() !== applied) setTyped(applied);
    onApplied();
  }
  useEffect(() => {
    if (typed.trim() === applied) return;
    const timer = setTimeout(
      () =>
        setParams((current) => withParam(current, 'search', typed.trim() || null), {
          replace: true,
        }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [typed, applied, setParams]);
  const clear = () => {
    setTyped('');
    setParams((current) => withParam(current, 'search', null), { replace: true });
  };
  return { typed, setTyped, applied, clear };
}

export type ConsentSearch = ReturnType<typeof useConsentSearch>;
