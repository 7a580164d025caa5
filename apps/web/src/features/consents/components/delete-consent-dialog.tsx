import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

/** The spec's confirmation, with one line that names the partner and what deleting means. */
export function DeleteConsentDialog({
  partnerName,
  onCancel,
  onConfirm,
  deleting,
}: {
  /** The partner of the consent to delete; null when the dialog is closed. */
  partnerName: string | null;
  onCancel(): void;
  onConfirm(): void;
  deleting: boolean;
}) {
  return (
    <Dialog
      open={partnerName !== null}
      onOpenChange={(next) => !next && onCancel()}
      title="Delete Consent"
      description={
        <>
          Are you sure you want to delete this consent? This action cannot be undone.
          <span className="mt-2 block">
            {partnerName} will no longer be able to read your bank data.
          </span>
        </>
      }
    >
      <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={deleting} aria-busy={deleting}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
