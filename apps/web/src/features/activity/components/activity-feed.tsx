import { History } from 'lucide-react';
import { useId, useState } from 'react';
import { ActivityKindSchema, type ActivityKind } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDateTime } from '@/lib/format';
import { ActivityRow } from '@/ui/activity-row';
import { Card, CardBody } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PageTitle } from '@/ui/page-title';
import { PagedList } from '@/ui/paged-list';
import { Skeleton } from '@/ui/spinner';
import { useActivity } from '../api/get-activity';

const filters: { value: ActivityKind | 'all'; label: string }[] = [
  { value: 'all', label: 'All activity' },
  { value: 'order', label: 'Orders and payments' },
  { value: 'consent', label: 'Consents' },
  { value: 'profile', label: 'Account and sign-in' },
];

function RowSkeleton() {
  return (
    <div className="flex items-start gap-3 py-3" aria-hidden="true">
      <Skeleton className="h-9 w-9 rounded-full" />
      <div className="flex-1 space-y-2">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-3 w-24" />
      </div>
    </div>
  );
}

/** Everything recorded for the account, newest first, a page at a time. */
export function ActivityFeed() {
  const [filter, setFilter] = useState<ActivityKind | 'all'>('all');
  const selectId = useId();
  const type = filter === 'all' ? undefined : filter;
  const query = useActivity(type);

  return (
    <div>
      <PageTitle
        action={
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
              Type
            </label>
            <select
              id={selectId}
              value={filter}
              onChange={(e) => {
                const parsed = ActivityKindSchema.safeParse(e.target.value);
                setFilter(parsed.success ? parsed.data : 'all');
              }}
              className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30"
            >
              {filters.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
        }
      >
        Account Activity
      </PageTitle>
      <Card>
        <CardBody>
          <PagedList
            query={query}
            itemsOf={(page) => page.data}
            placeholder={{
              label: 'Loading activity',
              rows: [0, 1, 2, 3].map((i) => <RowSkeleton key={i} />),
            }}
            empty={
              <EmptyState
                icon={<History className="h-10 w-10" />}
                title="No recent activity to display."
              />
            }
            errorText={errorMessage(query.error, 'Failed to load activity')}
            loadMoreLabel="Load more"
            loadingMoreLabel="Loading..."
          >
            {(events) => (
              <ul className="divide-y divide-slate-100">
                {events.map((event) => (
                  <li key={event._id}>
                    <ActivityRow {...event} date={formatDateTime(event.createdAt)} />
                  </li>
                ))}
              </ul>
            )}
          </PagedList>
        </CardBody>
      </Card>
    </div>
  );
}
