import { useQueryClient } from '@tanstack/react-query';
import { MapPin } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { billingMessages } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Dialog } from '@/ui/dialog';
import { Skeleton } from '@/ui/spinner';
import { getBillingDetailsQueryOptions, useBillingDetails } from '../api/get-billing-details';
import { BillingDetailsForm } from './billing-details-form';
import { BillingSummary } from './billing-summary';

/**
 * The Billing Details card, on the profile and the order screen: the address and GSTIN that
 * orders and invoices carry, and the GST their place of supply leads to.
 */
export function BillingDetailsSection({ className = 'mt-6' }: { className?: string }) {
  const billing = useBillingDetails();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const saved = billing.data?.billingDetails ?? null;

  let body: React.ReactNode;
  if (billing.isPending) body = <Skeleton className="h-24 w-full" />;
  else if (billing.isError) {
    body = (
      <>
        <p role="alert" className="text-sm text-red-800">
          {errorMessage(billing.error, 'Failed to load billing details')}
        </p>
        <Button
          variant="secondary"
          className="mt-4"
          onClick={() => queryClient.resetQueries(getBillingDetailsQueryOptions())}
        >
          Try again
        </Button>
      </>
    );
  } else if (saved) {
    body = <BillingSummary details={saved} supplierStateCode={billing.data.supplierStateCode} />;
  } else {
    body = (
      <div className="py-2 text-center">
        <MapPin className="mx-auto h-8 w-8 text-slate-400" aria-hidden="true" />
        <p className="mt-2 font-medium text-slate-800">No billing address yet.</p>
        <p className="mt-1 text-sm text-slate-600">
          Add it before your next order: your invoices carry it, and its State decides the GST.
        </p>
      </div>
    );
  }

  return (
    <Card className={className}>
      <CardHeader
        title="Billing Details"
        action={
          billing.isSuccess && (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              {saved ? 'Edit billing details' : 'Add billing address'}
            </Button>
          )
        }
      />
      <CardBody>{body}</CardBody>
      {billing.isSuccess && (
        <Dialog
          open={editing}
          onOpenChange={setEditing}
          title="Billing details"
          description="The GSTIN, address and State printed on your invoices."
        >
          <BillingDetailsForm
            saved={saved}
            registeredGstin={billing.data.registeredGstin}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              toast.success(billingMessages.saved);
            }}
          />
        </Dialog>
      )}
    </Card>
  );
}
