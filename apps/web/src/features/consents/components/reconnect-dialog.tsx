import type { Consent } from '@portal/contract';
import { formatDate, isPast } from '@/lib/format';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

/** Asks the consent's partner for a fresh consent (docs/decisions/041). */
export function ReconnectDialog({
  consent,
  onCancel,
  onConfirm,
  pending,
}: {
  /** The consent to reconnect; null when the dialog is closed. */
  consent: Consent | null;
  onCancel(): void;
  onConfirm(consent: Consent): void;
  pending: boolean;
}) {
  const ended = consent ? isPast(consent.expirationDateTime) : false;
  return (
    <Dialog
      open={consent !== null}
      onOpenChange={(next) => !next && onCancel()}
      title="Reconnect"
      description={
        consent ? (
          <>
            Your consent for {consent.partnerName} {ended ? 'expired on' : 'ends on'}{' '}
            {formatDate(consent.expirationDateTime)}.
            <span className="mt-2 block">
              {consent.partnerName} will be asked to request a fresh consent. You then approve it at
              your bank, as before; until then nothing changes.
            </span>
          </>
        ) : undefined
      }
    >
      {consent && (
        <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(consent)} disabled={pending} aria-busy={pending}>
            Ask to reconnect
          </Button>
        </div>
      )}
    </Dialog>
  );
}
