import { useRef, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { PackageOpen } from 'lucide-react';
import { GST_RATE_PERCENT, HANDLING_RATE_PERCENT, type Plan } from '@portal/contract';
import { BillingConfirmDialog } from '@/features/billing/components/billing-confirm-dialog';
import { BillingDetailsSection } from '@/features/billing/components/billing-details-section';
import { usePlans } from '@/features/plans/api/get-plans';
import { RenewAutomaticallyInstead } from '@/features/auto-renewal/components/renew-automatically-instead';
import { PurchaseExplanation } from '@/features/plans/components/purchase-explanation';
import { cn } from '@/lib/cn';
import { formatInr } from '@/lib/format';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { Field, type FieldProps } from '@/ui/field';
import { Skeleton } from '@/ui/spinner';
import { useToastsAbove } from '@/ui/toaster';
import { useStartPayment } from '../hooks/use-start-payment';
import { orderSubmitError, planAmounts, type OrderForm } from './order-rules';

function PlanOption({
  plan,
  checked,
  onSelect,
}: {
  plan: Plan;
  checked: boolean;
  onSelect(): void;
}) {
  const amounts = planAmounts(plan);
  const companies = `${plan.noOfCompany} ${plan.noOfCompany === 1 ? 'Company' : 'Companies'}`;
  return (
    <label
      className={cn(
        'block cursor-pointer rounded-lg border-2 bg-white p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-600',
        checked ? 'border-blue-700 bg-blue-50' : 'border-slate-200 hover:border-slate-300',
      )}
    >
      <input
        type="radio"
        name="planId"
        value={plan._id}
        checked={checked}
        onChange={onSelect}
        className="sr-only"
      />
      <span className="flex items-start justify-between gap-2">
        <span className="font-semibold text-slate-900">{plan.planName}</span>
        <span className="text-xs font-medium text-slate-600">{plan.planType}</span>
      </span>
      <span className="mt-1 block text-sm text-slate-600">
        {plan.duration} days · {companies}
      </span>
      <span className="mt-2 block text-sm text-slate-800">Base: {formatInr(amounts.base)}</span>
      <span className="block text-xs text-slate-600">
        + GST {GST_RATE_PERCENT}% + Internet Handling Charges {HANDLING_RATE_PERCENT}%
      </span>
      <span className="mt-1 block font-semibold text-slate-900">
        Total: {formatInr(amounts.total)}
      </span>
    </label>
  );
}

type Customer = Omit<OrderForm, 'planId'>;

const customerFields: (Omit<FieldProps, 'name'> & { name: keyof Customer })[] = [
  { name: 'customerName', label: 'Company Name', autoComplete: 'organization' },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone Number', type: 'tel', autoComplete: 'tel' },
];

/**
 * Spec §5's order checks, the plan's first: the first that fails is the one message. The plan is
 * chosen outside the form's boxes (the screen keeps it in the address), so its message is the
 * form's own.
 */
const orderCheck =
  (planId: string | null): Resolver<Customer> =>
  (values) => {
    const problem = orderSubmitError({ planId, ...values });
    if (!problem) return { values, errors: {} };
    const error = { type: 'validation', message: problem.message };
    const errors: FieldErrors<Customer> =
      problem.field === 'planId' ? { root: { planId: error } } : { [problem.field]: error };
    return { values: {}, errors };
  };

/** The one message a failed `orderCheck` leaves. */
const messageOf = ({ root, ...fields }: FieldErrors<Customer>) =>
  (root?.planId ?? Object.values(fields)[0])!.message!;

/** Spec §2 Orders screen, Create Order tab. */
export function CreateOrderForm({
  selectedPlanId,
  onSelectPlan,
}: {
  selectedPlanId: string | null;
  onSelectPlan(planId: string): void;
}) {
  const user = useSessionStore((s) => s.user);
  const { data: plans, isPending, isError } = usePlans();
  const startPayment = useStartPayment();
  const plan = plans?.find((p) => p._id === selectedPlanId) ?? null;
  const {
    register,
    handleSubmit,
    getValues,
    clearErrors,
    formState: { errors },
  } = useForm({
    defaultValues: {
      customerName: user?.company_name ?? '',
      email: user?.email ?? '',
      phone: user?.mobile ?? '',
    },
    resolver: orderCheck(plan?._id ?? null),
    // a message stays until its own field changes, or the next try; the focus stays put
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const [processing, setProcessing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const totalBar = useRef<HTMLDivElement>(null);
  useToastsAbove(totalBar);

  const amounts = plan ? planAmounts(plan) : null;
  const charges: [term: string, amount: number][] = amounts
    ? [
        ['Base Amount', amounts.base],
        [`GST ${GST_RATE_PERCENT}%`, amounts.gst],
        [`Internet Handling Charges ${HANDLING_RATE_PERCENT}%`, amounts.handling],
      ]
    : [];

  const submit = handleSubmit(
    // the GSTIN, address and place of supply are confirmed (or first given) before payment
    () => setConfirming(true),
    (invalid) => toast.error(messageOf(invalid)),
  );

  async function pay() {
    setProcessing(true);
    if (!(await startPayment(plan!, getValues()))) setProcessing(false);
  }

  return (
    <>
      {/* on a phone the total bar is fixed to the bottom: the padding keeps the form clear of it */}
      <form onSubmit={submit} noValidate={false} className="grid gap-6 max-md:pb-24 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader title="Select a Plan" />
            <CardBody>
              {isError ? (
                <p role="alert" className="text-sm text-red-700">
                  Failed to load plans
                </p>
              ) : isPending ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <Skeleton className="h-36" />
                  <Skeleton className="h-36" />
                </div>
              ) : plans.length === 0 ? (
                <EmptyState
                  icon={<PackageOpen className="h-10 w-10" />}
                  title="No plans available at the moment."
                />
              ) : (
                <fieldset>
                  <legend className="sr-only">Plan</legend>
                  <div className="grid gap-4 sm:grid-cols-2">
                    {plans.map((p) => (
                      <PlanOption
                        key={p._id}
                        plan={p}
                        checked={p._id === selectedPlanId}
                        onSelect={() => {
                          onSelectPlan(p._id);
                          clearErrors('root.planId');
                        }}
                      />
                    ))}
                  </div>
                  {errors.root?.planId && (
                    <p role="alert" className="mt-2 text-sm text-red-700">
                      {errors.root.planId.message}
                    </p>
                  )}
                </fieldset>
              )}
            </CardBody>
          </Card>

          <Card>
            <CardHeader title="Customer Information" />
            <CardBody className="grid gap-4 sm:grid-cols-2">
              {customerFields.map(({ name, ...props }) => (
                <Field
                  key={name}
                  {...props}
                  {...register(name, { onChange: () => clearErrors(name) })}
                  error={errors[name]?.message}
                />
              ))}
              <Field
                label="Amount"
                name="amount"
                readOnly
                value={amounts ? formatInr(amounts.total) : ''}
              />
            </CardBody>
          </Card>

          <BillingDetailsSection className="" />
        </div>

        <Card className="h-fit">
          <CardHeader title="Order Summary" />
          <CardBody>
            {plan && amounts ? (
              <dl className="space-y-2 text-sm">
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-600">Plan</dt>
                  <dd className="font-medium text-slate-900">{plan.planName}</dd>
                </div>
                {charges.map(([term, amount]) => (
                  <div key={term} className="flex justify-between gap-4">
                    <dt className="text-slate-600">{term}</dt>
                    <dd>{formatInr(amount)}</dd>
                  </div>
                ))}
                <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold">
                  <dt>Total</dt>
                  <dd>{formatInr(amounts.total)}</dd>
                </div>
              </dl>
            ) : (
              <p className="text-sm text-slate-600">Select a plan to see the order summary.</p>
            )}
            <PurchaseExplanation planId={plan?._id ?? null} />
            <RenewAutomaticallyInstead planId={plan?._id ?? null} />
            {/* below 768 px a bar fixed to the bottom of the screen: the total and the button stay
              in sight while the customer scrolls through the plans and the form */}
            <div
              ref={totalBar}
              className="mt-6 max-md:fixed max-md:inset-x-0 max-md:bottom-0 max-md:z-20 max-md:mt-0 max-md:flex max-md:items-center max-md:gap-4 max-md:border-t max-md:border-slate-200 max-md:bg-white max-md:px-4 max-md:py-3 max-md:shadow-[0_-4px_12px_rgb(15_23_42/0.08)]"
            >
              <p className="min-w-0 md:hidden">
                <span className="block text-xs text-slate-600">Total</span>
                <span className="block font-semibold text-slate-900">
                  {amounts ? formatInr(amounts.total) : 'Select a plan'}
                </span>
              </p>
              <Button
                type="submit"
                className="w-full max-md:ml-auto max-md:w-auto"
                disabled={!plan || processing}
              >
                {processing ? 'Processing...' : 'Proceed to Payment'}
              </Button>
            </div>
          </CardBody>
        </Card>
      </form>
      {/* outside the order form: React carries the dialog form's submit up through the portal */}
      <BillingConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => void pay()}
      />
    </>
  );
}
