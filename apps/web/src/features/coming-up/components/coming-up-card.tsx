import { CalendarClock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  reconnectConsentLink,
  type ComingUpPlan,
  type ComingUpResponse,
  type ExpiringConsent,
} from '@portal/contract';
import { paths } from '@/config/paths';
import { formatDate, formatNumber } from '@/lib/format';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { useComingUp } from '../api/get-coming-up';
import { COMING_UP_TITLE, ComingUpSkeleton } from './coming-up-skeleton';

const actionStyle =
  'inline-flex min-h-11 items-center justify-center rounded-md px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 max-sm:w-full md:min-h-9';
const primaryAction = `${actionStyle} bg-blue-700 text-white hover:bg-blue-800`;
const secondaryAction = `${actionStyle} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`;

/** "in 12 days, 05/01/2027": the relative time beside the absolute one. */
export const inDays = (days: number, date: string) =>
  `${days === 0 ? 'today' : `in ${days} ${days === 1 ? 'day' : 'days'}`}, ${formatDate(date)}`;

function Row({ title, detail, action }: { title: string; detail: string; action: ReactNode }) {
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{title}</p>
        <p className="text-sm text-slate-600">{detail}</p>
      </div>
      {action}
    </li>
  );
}

function PlanRow({ plan }: { plan: ComingUpPlan }) {
  const renew = plan.renewPlanId ? paths.ordersForPlan(plan.renewPlanId) : paths.plans;
  return (
    <Row
      title={`Your ${plan.planName} plan ends`}
      detail={inDays(plan.daysLeft, plan.endDate)}
      action={
        <Link to={renew} className={primaryAction} aria-label={`Renew your ${plan.planName} plan`}>
          Renew
        </Link>
      }
    />
  );
}

function ConsentRow({ consent }: { consent: ExpiringConsent }) {
  return (
    <Row
      title={`Consent for ${consent.partnerName} expires`}
      detail={inDays(consent.daysLeft, consent.expiresAt)}
      action={
        <Link
          to={reconnectConsentLink(consent._id)}
          className={secondaryAction}
          aria-label={`Reconnect the consent for ${consent.partnerName}`}
        >
          Reconnect
        </Link>
      }
    />
  );
}

function expiringLine({ count, more, windowDays }: ComingUpResponse['data']['consents']) {
  const n = more
    ? `${formatNumber(count)} or more consents`
    : `${formatNumber(count)} ${count === 1 ? 'consent' : 'consents'}`;
  return `${n} ${count === 1 && !more ? 'expires' : 'expire'} in the next ${windowDays} days.`;
}

function Content({ data }: { data: ComingUpResponse['data'] }) {
  const { plan, consents } = data;
  if (!plan && consents.count === 0) {
    return (
      <div className="py-4 text-center">
        <p className="text-sm text-slate-700">
          Nothing ends in the next {consents.windowDays} days.
        </p>
        <Link to={paths.plans} className={`${secondaryAction} mt-3`}>
          Browse Plans
        </Link>
      </div>
    );
  }
  return (
    <>
      <ul className="divide-y divide-slate-100" aria-label="Plan and consents ending soon">
        {plan && <PlanRow plan={plan} />}
        {consents.soonest.map((consent) => (
          <ConsentRow key={consent._id} consent={consent} />
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-700">
        {consents.count === 0 ? (
          `No consent expires in the next ${consents.windowDays} days.`
        ) : (
          <>
            {expiringLine(consents)}{' '}
            <Link
              to={paths.consents}
              className="rounded font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
            >
              See your consents
            </Link>
          </>
        )}
      </p>
    </>
  );
}

/** The dashboard's Coming up: the plan's end with Renew, consents expiring with Reconnect. */
export function ComingUpCard() {
  const { data, isPending, isError, refetch, isFetching } = useComingUp();
  if (isPending) return <ComingUpSkeleton />;
  return (
    <Card>
      <CardHeader
        title={
          <span className="inline-flex items-center gap-2">
            <CalendarClock className="h-5 w-5 text-slate-500" aria-hidden="true" />
            {COMING_UP_TITLE}
          </span>
        }
      />
      <CardBody className="py-2">
        {isError ? (
          // polite: the dashboard's own failure is the one alert the page raises
          <div aria-live="polite" className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center">
            <p className="flex-1 text-sm text-red-800">Failed to load what is coming up.</p>
            <Button
              variant="secondary"
              className="min-h-11 max-sm:w-full md:min-h-9"
              disabled={isFetching}
              onClick={() => void refetch()}
            >
              Retry
            </Button>
          </div>
        ) : (
          <Content data={data} />
        )}
      </CardBody>
    </Card>
  );
}
