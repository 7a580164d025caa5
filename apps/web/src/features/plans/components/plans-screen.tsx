import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { Check, LayoutGrid, PackageOpen, Table2 } from 'lucide-react';
import type { Plan, PlanStanding, PurchaseOutcome } from '@portal/contract';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { formatDate, formatInr, formatInrWhole } from '@/lib/format';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PageTitle } from '@/ui/page-title';
import { Skeleton } from '@/ui/spinner';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { Badge } from '@/ui/badge';
import { AutoRenewalCard } from '@/features/auto-renewal/components/auto-renewal-card';
import { usePlanCatalogue } from '../api/get-plans';
import { PlanTypeBadge, companiesLabel } from './plan-type-badge';
import { daysLeftLabel, purchaseNote } from './plan-standing';

type View = 'card' | 'table';

function ViewToggle({ view, onChange }: { view: View; onChange(view: View): void }) {
  const option = (value: View, label: string, Icon: typeof LayoutGrid) => (
    <Button
      variant={view === value ? 'primary' : 'secondary'}
      size="sm"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
    >
      <Icon className="h-4 w-4" aria-hidden="true" />
      {label}
    </Button>
  );
  return (
    <div role="group" aria-label="Plan view" className="flex gap-2">
      {option('card', 'Card View', LayoutGrid)}
      {option('table', 'Table View', Table2)}
    </div>
  );
}

/** Prices are before GST; the plans say so beside the number (the order adds it). */
const plusGst = <span className="text-sm font-normal text-slate-600"> + GST</span>;

/** The customer's plan and what buying each plan would add, as GET /api/plans answers them. */
interface Standing {
  current: PlanStanding | null;
  purchases: PurchaseOutcome[];
}

const isCurrent = (plan: Plan, standing: Standing) => standing.current?.planId === plan._id;

/** Marks the plan the customer has, with the days left. */
function CurrentPlanMark({ current }: { current: PlanStanding }) {
  return (
    <p className="flex max-w-56 flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
      <Badge tone="green">Current plan</Badge>
      <span>{daysLeftLabel(current)}</span>
    </p>
  );
}

/** What buying the plan now does, said under its button. */
function PurchaseNote({ plan, standing }: { plan: Plan; standing: Standing }) {
  const note = purchaseNote(
    plan._id,
    standing.current,
    standing.purchases.find((p) => p.planId === plan._id),
  );
  // capped, so that a long note wraps instead of widening the table past the screen
  return note ? <p className="mt-2 max-w-56 text-sm text-slate-600">{note}</p> : null;
}

function PlanCard({
  plan,
  standing,
  busy,
  onPurchase,
}: {
  plan: Plan;
  standing: Standing;
  busy: boolean;
  onPurchase(plan: Plan): void;
}) {
  const features = [
    companiesLabel(plan.noOfCompany),
    `Valid for ${plan.duration} days`,
    '24/7 Customer Support',
    'Advanced Analytics',
    ...(plan.planType === 'Multi' ? ['Multi-company Management'] : []),
  ];
  return (
    <Card className={cn('flex flex-col p-6', isCurrent(plan, standing) && 'ring-2 ring-green-600')}>
      <div>
        <PlanTypeBadge type={plan.planType} />
      </div>
      {standing.current && isCurrent(plan, standing) && (
        <div className="mt-3">
          <CurrentPlanMark current={standing.current} />
        </div>
      )}
      <h2 className="mt-3 text-xl font-semibold text-slate-900">{plan.planName}</h2>
      <p className="mt-2">
        <span className="text-3xl font-bold text-slate-900">{formatInr(plan.amount)}</span>
        {plusGst}
        <span className="text-sm text-slate-600"> / {plan.duration} days</span>
      </p>
      <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-700">
        {features.map((feature) => (
          <li key={feature} className="flex items-center gap-2">
            <Check className="h-4 w-4 shrink-0 text-green-700" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
      <Button
        className="mt-6 w-full"
        disabled={busy}
        aria-label={`Purchase Plan ${plan.planName}`}
        onClick={() => onPurchase(plan)}
      >
        {busy ? 'Processing...' : 'Purchase Plan'}
      </Button>
      <PurchaseNote plan={plan} standing={standing} />
    </Card>
  );
}

function PlansTable({
  plans,
  standing,
  busyId,
  onPurchase,
}: {
  plans: Plan[];
  standing: Standing;
  busyId: string | null;
  onPurchase(plan: Plan): void;
}) {
  const columns: Column<Plan>[] = [
    {
      header: 'Plan Details',
      cell: (plan) => (
        <>
          <p className="font-medium">{plan.planName}</p>
          <p className="text-xs text-slate-600">ID: {plan._id.slice(-6)}</p>
          {standing.current && isCurrent(plan, standing) && (
            <div className="mt-1">
              <CurrentPlanMark current={standing.current} />
            </div>
          )}
        </>
      ),
    },
    { header: 'Type', cell: (plan) => <PlanTypeBadge type={plan.planType} /> },
    { header: 'Companies', cell: (plan) => companiesLabel(plan.noOfCompany) },
    { header: 'Duration', cell: (plan) => `${plan.duration} days` },
    {
      header: 'Price',
      cell: (plan) => (
        <>
          {formatInrWhole(plan.amount)}
          {plusGst}
        </>
      ),
    },
    { header: 'Created', cell: (plan) => formatDate(plan.createdDate) },
    {
      header: 'Action',
      actions: true,
      cell: (plan) => (
        <RowActions>
          {/* the note goes under its button, so the column is no wider than the note */}
          <div className="flex flex-col items-start max-md:items-stretch">
            <Button
              size="sm"
              disabled={busyId === plan._id}
              aria-label={`Purchase Plan ${plan.planName}`}
              onClick={() => onPurchase(plan)}
            >
              {busyId === plan._id ? 'Processing...' : 'Purchase Plan'}
            </Button>
            <PurchaseNote plan={plan} standing={standing} />
          </div>
        </RowActions>
      ),
    },
  ];
  return (
    <DataTable
      caption="Plans"
      columns={columns}
      rows={plans}
      rowKey={(plan) => plan._id}
      // the plan notes wrap and the columns narrow, rather than the table scrolling sideways
      className="md:min-w-0"
    />
  );
}

/** Spec §2 Plans screen. */
export function PlansScreen() {
  const navigate = useNavigate();
  const { data, isPending, isError, error } = usePlanCatalogue();
  const [view, setView] = useState<View>('card');
  const [busyId, setBusyId] = useState<string | null>(null);

  useEffect(() => {
    if (isError) toast.error(errorMessage(error, 'Failed to fetch plans'));
  }, [isError, error]);

  const purchase = (plan: Plan) => {
    setBusyId(plan._id);
    try {
      toast.success(`Redirecting to order ${plan.planName} plan...`);
      void navigate(paths.ordersForPlan(plan._id));
    } catch {
      toast.error('Failed to navigate to order page');
      setBusyId(null);
    }
  };

  let content;
  if (isError) {
    content = (
      <Card>
        <p role="alert" className="px-5 py-8 text-center text-sm text-red-700">
          Failed to load plans
        </p>
      </Card>
    );
  } else if (isPending) {
    content = (
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-80" />
        ))}
      </div>
    );
  } else if (view === 'card') {
    const { plans } = data;
    content =
      plans.length === 0 ? (
        <Card>
          <EmptyState
            icon={<PackageOpen className="h-10 w-10" />}
            title="No plans available at the moment."
          />
        </Card>
      ) : (
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan._id}
              plan={plan}
              standing={data}
              busy={busyId === plan._id}
              onPurchase={purchase}
            />
          ))}
        </div>
      );
  } else {
    const { plans } = data;
    content = (
      <Card className={cn(plans.length === 0 && 'py-2')}>
        {plans.length === 0 ? (
          <EmptyState icon={<PackageOpen className="h-10 w-10" />} title="No plans available" />
        ) : (
          <PlansTable plans={plans} standing={data} busyId={busyId} onPurchase={purchase} />
        )}
      </Card>
    );
  }

  return (
    <div>
      <PageTitle action={<ViewToggle view={view} onChange={setView} />}>Choose Your Plan</PageTitle>
      {content}
      <AutoRenewalCard className="mt-6" />
    </div>
  );
}
