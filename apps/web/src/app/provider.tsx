import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { toasterStore, wantToaster } from '@/lib/toast';

const Toaster = lazy(() => import('@/ui/toaster').then((module) => ({ default: module.Toaster })));

/** Without a notice or an interaction, the toaster comes in this long after the page's load. */
export const TOASTER_AFTER_LOAD_MS = 10_000;

/** The first signs of someone using the page: the toaster is then in place before it is needed. */
const INTERACTIONS = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * Calls `then` once: at the first interaction, or `delayMs` after the page's load event. The
 * answer cancels it.
 */
function atFirstInteractionOrAfterLoad(delayMs: number, then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startTimer = () => (timer = setTimeout(fire, delayMs));
  function cancel() {
    clearTimeout(timer);
    window.removeEventListener('load', startTimer);
    for (const type of INTERACTIONS) window.removeEventListener(type, fire, true);
  }
  function fire() {
    cancel();
    then();
  }
  if (document.readyState === 'complete') startTimer();
  else window.addEventListener('load', startTimer, { once: true });
  for (const type of INTERACTIONS) window.addEventListener(type, fire, true);
  return cancel;
}

/**
 * Notices are never part of the first screen's work. The toaster (and Sonner) mount with the
 * first notice, or earlier at the first interaction, so that its live region is in place before
 * the notices that follow actions are announced; failing both, a while after the page has loaded.
 */
function DeferredToaster() {
  const wanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.isWanted);
  useEffect(() => atFirstInteractionOrAfterLoad(TOASTER_AFTER_LOAD_MS, wantToaster), []);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <DeferredToaster />
    </>
  );
}
