import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useFocusReturn } from './focus-return';
import { dismissEarlierSuccessToasts } from '@/lib/toast';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Where focus goes on close when not to the control that opened it. */
  returnFocus?(): HTMLElement | null | undefined;
}

/**
 * A modal dialog: focus stays inside while it is open and returns to its opener on close. It
 * keeps the bottom 8rem of the screen free, where toasts appear, so none covers its buttons: on
 * a phone it hangs from the top, on a desktop it is centred with as much room above.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  returnFocus,
}: DialogProps) {
  const focus = useFocusReturn(returnFocus);
  // the success notices of the screen behind go, as on a route change: lifted above a sticky
  // bar (the order screen's total, on a phone) they would cover the dialog's buttons
  useEffect(() => {
    if (open) dismissEarlierSuccessToasts(Date.now(), 0);
  }, [open]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          className={cn(
            'fixed left-1/2 top-4 z-50 max-h-[calc(100dvh-8rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl md:top-1/2 md:max-h-[calc(100dvh-16rem)] md:-translate-y-1/2',
            className,
          )}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div className="min-w-0">
              <RadixDialog.Title className="text-lg font-semibold text-slate-900">
                {title}
              </RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="mt-1 text-sm text-slate-600">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              className="-mr-2 -mt-2 flex h-9 w-9 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label="Close"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
