import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useMatches, type UIMatch } from 'react-router';
import { dismissEarlierSuccessToasts } from '@/lib/toast';

export const APP_NAME = 'Customer Portal';

/** What a route puts in its `handle`: the screen's name, which may depend on the query. */
export interface RouteHandle {
  title: string | ((search: URLSearchParams) => string);
}

const hasTitle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'title' in handle;

/** "{Screen} · Customer Portal", from the deepest route that names its screen. */
export function routeTitle(matches: readonly Pick<UIMatch, 'handle'>[], search: URLSearchParams) {
  const handle = matches
    .map((match) => match.handle)
    .filter(hasTitle)
    .at(-1);
  if (!handle) return APP_NAME;
  const screen = typeof handle.title === 'function' ? handle.title(search) : handle.title;
  return `${screen} · ${APP_NAME}`;
}

/**
 * Around every route: the document title names the screen, a route change is announced to
 * screen readers (politely, in a region that is always there), and success notices of the
 * screen left behind go.
 */
export function RouteEffects() {
  const matches = useMatches();
  const { pathname, search } = useLocation();
  const title = routeTitle(matches, new URLSearchParams(search));
  const [announcement, setAnnouncement] = useState('');
  const shownPath = useRef(pathname);

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    // the first screen is read out by the browser; only later moves need announcing
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    setAnnouncement(title.replace(` · ${APP_NAME}`, ''));
    dismissEarlierSuccessToasts();
  }, [pathname, title]);

  return (
    <>
      <Outlet />
      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
        {announcement}
      </div>
    </>
  );
}
