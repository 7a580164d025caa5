import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

/** What is about to be signed out: one session (by its browser), or every other one. */
export type SignOutTarget = { kind: 'one'; id: string; browser: string } | { kind: 'others' };

/** Confirms signing out; the destructive button is never the default one. */
export function SignOutDialog({
  target,
  onCancel,
  onConfirm,
  pending,
}: {
  /** Null when the dialog is closed. */
  target: SignOutTarget | null;
  onCancel(): void;
  onConfirm(): void;
  pending: boolean;
}) {
  const others = target?.kind === 'others';
  return (
    <Dialog
      open={target !== null}
      onOpenChange={(next) => !next && onCancel()}
      title={others ? 'Sign out all other sessions?' : 'Sign out this session?'}
      description={
        others
          ? 'Every browser signed in to your account except this one is signed out at once. This device stays signed in.'
          : `${target?.kind === 'one' ? target.browser : ''} is signed out at once and must sign in again to return.`
      }
    >
      <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending} aria-busy={pending}>
          {others ? 'Sign out all others' : 'Sign out'}
        </Button>
      </div>
    </Dialog>
  );
}
