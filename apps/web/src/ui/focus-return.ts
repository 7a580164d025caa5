import { useRef } from 'react';

/**
 * Where focus goes when a dialog or panel closes: back to the control that opened it. Radix does
 * this only for its own Trigger, and ours are opened from state, so the opener is noted as the
 * dialog opens. If that control has gone meanwhile (the row it sat in was deleted, say), focus
 * goes to the main content rather than being dropped on <body>.
 */
export function useFocusReturn(returnFocus?: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus() {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus(event: Event) {
      event.preventDefault();
      const target = returnFocus?.() ?? opener.current;
      opener.current = null;
      if (target?.isConnected) target.focus();
      else document.getElementById('main-content')?.focus();
    },
  };
}
