import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

export function DeleteConsentDialog({
  open,
  onCancel,
  onConfirm,
  deleting,
}: {
  open: boolean;
  onCancel(): void;
  onConfirm(): void;
  deleting: boolean;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title="Delete Consent"
      description="Are you sure you want to delete this consent? This action cannot be undone."
    >
      <div className="mt-2 flex justify-end gap-2">
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
