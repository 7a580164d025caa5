import { CreditCard, ShieldCheck, UserRound } from 'lucide-react';
import type { ActivityKind, ActivityStatus } from '@portal/contract';
import { cn } from '@/lib/cn';
import { Badge, type BadgeTone } from './badge';

const icons = { consent: ShieldCheck, order: CreditCard, profile: UserRound } as const;

const looks: Record<ActivityStatus, { tone: BadgeTone; icon: string }> = {
  success: { tone: 'green', icon: 'bg-green-100 text-green-700' },
  pending: { tone: 'yellow', icon: 'bg-amber-100 text-amber-800' },
  failed: { tone: 'red', icon: 'bg-red-100 text-red-700' },
};

export interface ActivityRowProps {
  kind: ActivityKind;
  title: string;
  description: string;
  /** Already formatted. */
  date: string;
  /** The colour of the row. */
  status: ActivityStatus;
  /**
   * The state of the thing the row is about ('Completed', 'Approved'), shown once as the row's
   * badge. Rows whose title already says what happened ('Payment completed') have none.
   */
  state?: string;
}

/** One activity item, the same on the dashboard, the activity screen and the bell. */
export function ActivityRow({ kind, title, description, date, status, state }: ActivityRowProps) {
  const Icon = icons[kind];
  const look = looks[status];
  return (
    <div className="flex items-start gap-3 py-3">
      <span
        className={cn('flex h-9 w-9 shrink-0 items-center justify-center rounded-full', look.icon)}
        aria-hidden="true"
      >
        <Icon className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-medium text-slate-900">{title}</p>
          {state && <Badge tone={look.tone}>{state}</Badge>}
        </div>
        <p className="mt-0.5 break-words text-sm text-slate-600">{description}</p>
        <p className="mt-1 text-xs text-slate-500">{date}</p>
      </div>
    </div>
  );
}
