import type { ExternalToast, toast as SonnerToast } from 'sonner';

type Sonner = typeof SonnerToast;
type ToastId = string | number;

/*
 * Sonner is not part of the first screen's work: it loads with the first notice, or once the
 * first screen has settled (see AppProvider), and a notice raised before it has arrived waits
 * for it. Notices keep their order, since each waits on the same promise; the toaster shows the
 * ones raised before it subscribed (Sonner replays them).
 */
let sonner: Sonner | undefined;
let sonnerReady: Promise<Sonner> | undefined;

let toasterWanted = false;
const toasterListeners = new Set<() => void>();

/** Asks for the toaster (and Sonner) to be loaded and mounted; later calls change nothing. */
export function wantToaster() {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const listener of toasterListeners) listener();
}

/** For useSyncExternalStore: whether the toaster has been asked for. */
export const toasterStore = {
  subscribe(listener: () => void) {
    toasterListeners.add(listener);
    return () => toasterListeners.delete(listener);
  },
  isWanted: () => toasterWanted,
};

const withSonner = (call: (toast: Sonner) => void) => {
  if (sonner) return call(sonner);
  wantToaster();
  sonnerReady ??= import('sonner').then((module) => (sonner = module.toast));
  void sonnerReady.then(call);
};

let lastId = 0;
/** The id is chosen here, so that it can be returned before Sonner has loaded. */
const idOf = (options?: ExternalToast): ToastId => options?.id ?? `notice-${++lastId}`;

/** When each success notice still showing was raised. */
const raisedAt = new Map<ToastId, number>();

/**
 * The app's notices. A success leaves on its own after a few seconds; an error stays until the
 * customer dismisses it, so that it cannot be missed.
 */
export const toast = {
  success(message: string, options?: ExternalToast) {
    const id = idOf(options);
    withSonner((toast) => toast.success(message, { ...options, id }));
    raisedAt.set(id, Date.now());
    return id;
  },
  error(message: string, options?: ExternalToast) {
    const id = idOf(options);
    withSonner((toast) =>
      toast.error(message, {
        duration: Infinity,
        cancel: { label: 'Dismiss', onClick: () => {} },
        ...options,
        id,
      }),
    );
    return id;
  },
};

/**
 * On a route change the success notices of the screen left behind go. One raised just now stays:
 * it announces the move itself ('Login successful!', 'Redirecting to order...').
 */
export function dismissEarlierSuccessToasts(now = Date.now(), graceMs = 1000) {
  for (const [id, at] of raisedAt) {
    if (now - at <= graceMs) continue;
    withSonner((toast) => toast.dismiss(id));
    raisedAt.delete(id);
  }
}
