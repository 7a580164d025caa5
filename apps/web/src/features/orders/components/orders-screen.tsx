import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import { ArrowLeft, Info } from 'lucide-react';
import { toast } from '@/lib/toast';
import { usePlans } from '@/features/plans/api/get-plans';
import { paths } from '@/config/paths';
import { Button } from '@/ui/button';
import { PageTitle } from '@/ui/page-title';
import { CreateOrderForm } from './create-order-form';
import { OrderHistory } from './order-history';
import { PaymentResult } from './payment-result';

type Tab = 'create' | 'history';

const tabClass =
  'rounded-md px-4 py-2 text-sm font-medium text-slate-700 hover:bg-white/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 data-[state=active]:bg-white data-[state=active]:text-blue-800 data-[state=active]:shadow-sm';

/** Spec §2 Orders screen: Create Order and Order History; `?planId=` preselects a plan. */
export function OrdersScreen() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const planIdParam = params.get('planId');
  // the gateway's return names the order paid for (GET /api/payments/callback)
  const returnedOrderId = params.get('order');
  const [tab, setTab] = useState<Tab>(params.get('tab') === 'history' ? 'history' : 'create');
  const [selectedPlanId, setSelectedPlanId] = useState<string | null>(planIdParam);
  const { data: plans } = usePlans();
  const announced = useRef<string | null>(null);

  const preselected = planIdParam ? plans?.find((p) => p._id === planIdParam) : undefined;

  useEffect(() => {
    if (preselected && announced.current !== preselected._id) {
      announced.current = preselected._id;
      toast.success(`${preselected.planName} plan selected!`);
    }
  }, [preselected]);

  const dismissResult = () =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.delete('order');
        return updated;
      },
      { replace: true },
    );

  const changeTab = (value: string) => {
    const next = value === 'history' ? 'history' : 'create';
    setTab(next);
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'history') updated.set('tab', 'history');
        else updated.delete('tab');
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <div>
      <PageTitle
        action={
          planIdParam ? (
            <Button variant="secondary" onClick={() => void navigate(paths.plans)}>
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Plans
            </Button>
          ) : undefined
        }
      >
        Orders
      </PageTitle>
      {preselected && (
        <p className="mb-4 flex items-center gap-2 rounded-md border border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-900">
          <Info className="h-4 w-4" aria-hidden="true" />
          Plan pre-selected from Plans page
        </p>
      )}
      {returnedOrderId && <PaymentResult orderId={returnedOrderId} onDismiss={dismissResult} />}
      <Tabs.Root value={tab} onValueChange={changeTab}>
        <Tabs.List
          aria-label="Orders"
          className="mb-6 inline-flex gap-2 rounded-lg bg-slate-100 p-1"
        >
          <Tabs.Trigger value="create" className={tabClass}>
            Create Order
          </Tabs.Trigger>
          <Tabs.Trigger value="history" className={tabClass}>
            Order History
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="create" className="focus-visible:outline-none">
          <CreateOrderForm selectedPlanId={selectedPlanId} onSelectPlan={setSelectedPlanId} />
        </Tabs.Content>
        <Tabs.Content value="history" className="focus-visible:outline-none">
          <OrderHistory highlightId={returnedOrderId} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
