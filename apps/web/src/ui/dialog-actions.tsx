import { Button } from './button';

/**
 * A dialog form's two buttons: the action (submit) and Cancel, side by side from the sm width,
 * stacked full width and 44 px tall on a phone, the action first.
 */
export function DialogActions({
  action,
  danger = false,
  disabled = false,
  busy = false,
  onCancel,
}: {
  action: string;
  danger?: boolean;
  /** Not ready to be sent: a field is missing. */
  disabled?: boolean;
  /** Being sent. */
  busy?: boolean;
  onCancel(): void;
}) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row-reverse">
      <Button
        type="submit"
        variant={danger ? 'danger' : 'primary'}
        className="max-md:h-11 sm:flex-1"
        disabled={disabled}
        busy={busy}
      >
        {action}
      </Button>
      <Button variant="secondary" className="max-md:h-11 sm:flex-1" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/** A form's error, read out when it appears. */
export function FormError({ message }: { message: string | null }) {
  return (
    <div aria-live="polite">
      {message && <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{message}</p>}
    </div>
  );
}
