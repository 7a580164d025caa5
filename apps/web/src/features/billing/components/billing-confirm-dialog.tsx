import { useState } from 'react';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { Skeleton } from '@/ui/spinner';
import { useBillingDetails } from '../api/get-billing-details';
import { BillingDetailsForm } from './billing-details-form';
import { BillingSummary } from './billing-summary';

/**
 * Before payment: the GSTIN, billing address and place of supply the order will keep, and the
 * GST they lead to, for the customer to confirm or edit. Without an address it asks for one first.
 */
export function BillingConfirmDialog({
  open,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onConfirm(): void;
}) {
  const billing = useBillingDetails();
  const [editing, setEditing] = useState(false);
  const saved = billing.data?.billingDetails ?? null;
  const asking = billing.isSuccess && (editing || !saved);

  const close = (next: boolean) => {
    if (!next) setEditing(false);
    onOpenChange(next);
  };

  let content: React.ReactNode;
  if (billing.isPending) content = <Skeleton className="h-40 w-full" />;
  else if (billing.isError) {
    content = (
      <>
        <p role="alert" className="text-sm text-red-800">
          {errorMessage(billing.error, 'Failed to load billing details')}
        </p>
        <Button variant="secondary" className="mt-4" onClick={() => void billing.refetch()}>
          Try again
        </Button>
      </>
    );
  } else if (asking) {
    content = (
      <BillingDetailsForm
        saved={saved}
        registeredGstin={billing.data.registeredGstin}
        submitLabel={saved ? 'Save billing details' : 'Save and continue'}
        onCancel={() => (saved ? setEditing(false) : close(false))}
        onSaved={() => setEditing(false)}
      />
    );
  } else {
    content = (
      <>
        <BillingSummary details={saved!} supplierStateCode={billing.data.supplierStateCode} />
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit details
          </Button>
          <Button
            onClick={() => {
              close(false);
              onConfirm();
            }}
          >
            Confirm and pay
          </Button>
        </div>
      </>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      className="max-w-lg"
      title={
        asking && !saved
          ? 'Add your billing address'
          : asking
            ? 'Edit billing details'
            : 'Confirm billing details'
      }
      description={
        asking && !saved
          ? 'Your invoice needs a billing address before payment.'
          : 'Your order and its invoice keep these details. Check them before payment.'
      }
    >
      {content}
    </Dialog>
  );
}
