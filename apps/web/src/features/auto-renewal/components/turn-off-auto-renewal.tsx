import { useState } from 'react';
import { autoRenewalMessages, type AutoRenewal } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { DialogActions, FormError } from '@/ui/dialog-actions';
import { useStopAutoRenewal } from '../api/auto-renewal';
import { TURN_OFF, turnOffWarning } from './auto-renewal-words';

const FAILED = 'Could not turn off auto-renewal. Please try again.';

/**
 * "Turn off auto-renewal", confirmed in a dialog that says first what happens: the plan stays
 * until the end of the period paid for, no debit follows, and the mandate is cancelled.
 */
export function TurnOffAutoRenewal({ renewal }: { renewal: AutoRenewal }) {
  const stop = useStopAutoRenewal();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const change = (next: boolean) => {
    if (!next) setError(null);
    setOpen(next);
  };

  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await stop.mutateAsync();
      change(false);
      toast.success(autoRenewalMessages.turnedOff);
    } catch (failure) {
      setError(errorMessage(failure, FAILED));
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        className="max-sm:h-11 max-sm:w-full"
        onClick={() => change(true)}
      >
        {TURN_OFF}
      </Button>
      <Dialog
        open={open}
        onOpenChange={change}
        title={`${TURN_OFF}?`}
        description={turnOffWarning(renewal)}
      >
        <form onSubmit={(event) => void confirm(event)} className="space-y-4">
          <FormError message={error} />
          <DialogActions
            action={TURN_OFF}
            danger
            busy={stop.isPending}
            onCancel={() => change(false)}
          />
        </form>
      </Dialog>
    </>
  );
}
