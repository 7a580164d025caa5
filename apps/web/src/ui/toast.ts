import { toast as sonner, type ExternalToast } from 'sonner';

/** When each success notice still showing was raised. */
const raisedAt = new Map<string | number, number>();

/**
 * The app's notices. A success leaves on its own after a few seconds; an error stays until the
 * customer dismisses it, so that it cannot be missed.
 */
export const toast = {
  success(message: string, options?: ExternalToast) {
    const id = sonner.success(message, options);
    raisedAt.set(id, Date.now());
    return id;
  },
  error(message: string, options?: ExternalToast) {
    return sonner.error(message, {
      duration: Infinity,
      cancel: { label: 'Dismiss', onClick: () => {} },
      ...options,
    });
  },
};

/**
 * On a route change the success notices of the screen left behind go. One raised just now stays:
 * it announces the move itself ('Login successful!', 'Redirecting to order...').
 */
export function dismissEarlierSuccessToasts(now = Date.now(), graceMs = 1000) {
  for (const [id, at] of raisedAt) {
    if (now - at <= graceMs) continue;
    sonner.dismiss(id);
    raisedAt.delete(id);
  }
}
