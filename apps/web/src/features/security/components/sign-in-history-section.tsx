import { History } from 'lucide-react';
import { SIGN_IN_HISTORY_DAYS, type SignInOutcome } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDateTime } from '@/lib/format';
import { Badge, type BadgeTone } from '@/ui/badge';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PagedList } from '@/ui/paged-list';
import { Skeleton } from '@/ui/spinner';
import { useSignIns } from '../api/get-sign-ins';
import { DeviceLabel, addressOf } from './device-label';

const outcomes: Record<SignInOutcome, { label: string; tone: BadgeTone }> = {
  success: { label: 'Signed in', tone: 'green' },
  wrong_password: { label: 'Wrong password', tone: 'red' },
  wrong_code: { label: 'Wrong code', tone: 'red' },
};

/** Sign-ins and refused attempts, newest first, a page at a time. */
export function SignInHistorySection() {
  const query = useSignIns();

  return (
    <Card aria-labelledby="sign-ins-heading">
      <CardHeader title={<span id="sign-ins-heading">Sign-in history</span>} />
      <CardBody>
        <p className="mb-2 text-sm text-slate-600">
          Sign-ins and failed attempts of the last {SIGN_IN_HISTORY_DAYS} days.
        </p>
        <PagedList
          query={query}
          itemsOf={(page) => page.data}
          placeholder={{
            label: 'Loading sign-in history',
            rows: [0, 1, 2].map((i) => <Skeleton key={i} className="my-3 h-12 w-full" />),
          }}
          empty={
            <EmptyState
              icon={<History className="h-10 w-10" />}
              title="No sign-ins recorded yet"
              description="Each sign-in and failed attempt will be listed here."
            />
          }
          errorText={errorMessage(query.error, 'Failed to load your sign-in history')}
          loadMoreLabel="Load more"
          loadingMoreLabel="Loading..."
        >
          {(events) => (
            <ul className="divide-y divide-slate-100" aria-label="Sign-in history">
              {events.map((event) => (
                <li
                  key={event._id}
                  className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-center sm:gap-4"
                >
                  <Badge tone={outcomes[event.outcome].tone} className="self-start sm:w-32">
                    {outcomes[event.outcome].label}
                  </Badge>
                  <span className="min-w-0 flex-1 text-slate-900">
                    <DeviceLabel browser={event.browser} device={event.device} />
                  </span>
                  <span className="text-slate-600">{addressOf(event.ip)}</span>
                  <time dateTime={event.at} className="text-slate-600 sm:w-36 sm:text-right">
                    {formatDateTime(event.at)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </PagedList>
      </CardBody>
    </Card>
  );
}
