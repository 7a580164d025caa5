import { Link } from 'react-router';
import { formatDate } from '@/lib/format';
import { ActivityRow } from '@/ui/activity-row';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { Skeleton } from '@/ui/spinner';
import type { DashboardRow } from '../utils/dashboard-data';
import { Placeholder } from './placeholder';

const linkStyle =
  'rounded text-sm font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

function ViewAll({ to, what }: { to: string; what: string }) {
  return (
    <Link to={to} className={linkStyle}>
      View All<span className="sr-only"> {what}</span>
    </Link>
  );
}

function ActivityList({
  items,
  capacity,
  loading,
  empty,
  label,
}: {
  items: readonly DashboardRow[];
  capacity: number;
  loading: boolean;
  empty: string;
  label: string;
}) {
  if (loading) {
    // as many rows as the card shows at most, each with the lines of an ActivityRow
    return (
      <div aria-hidden="true">
        {Array.from({ length: capacity }, (_, i) => (
          <div key={i} className="flex items-start gap-3 py-3">
            <Skeleton className="h-9 w-9 rounded-full" />
            <div className="flex-1">
              <p className="text-sm">
                <Placeholder width="w-1/2" />
              </p>
              <p className="mt-0.5 text-sm">
                <Placeholder width="w-3/4" />
              </p>
              <p className="mt-1 text-xs">
                <Placeholder width="w-20" />
              </p>
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (items.length === 0) return <p className="py-6 text-center text-sm text-slate-600">{empty}</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <ActivityRow {...item} kind={item.type} date={formatDate(item.date)} />
        </li>
      ))}
    </ul>
  );
}

interface ActivityCardProps {
  title: string;
  viewAll: string;
  what: string;
  items: readonly DashboardRow[];
  /** How many rows the card shows at most. */
  capacity: number;
  loading: boolean;
  empty: string;
}

/** A list of activity with its link to the whole list; `what` names both for screen readers. */
export function ActivityCard({
  title,
  viewAll,
  what,
  items,
  capacity,
  loading,
  empty,
}: ActivityCardProps) {
  return (
    <Card>
      <CardHeader title={title} action={<ViewAll to={viewAll} what={what} />} />
      <CardBody className="py-1">
        <ActivityList
          items={items}
          capacity={capacity}
          loading={loading}
          empty={empty}
          label={`Recent ${what}`}
        />
      </CardBody>
    </Card>
  );
}
