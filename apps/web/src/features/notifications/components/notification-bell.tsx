import { Bell } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { ActivityRow } from '@/ui/activity-row';
import { Dialog } from '@/ui/dialog';
import { getNotificationsQueryOptions, useNotifications } from '../api/get-notifications';
import { useMarkNotificationsSeen } from '../api/mark-notifications-seen';

/** The header's bell: a dot when something new happened; opening it lists what, and marks it seen. */
export function NotificationBell() {
  const { data } = useNotifications();
  const markSeen = useMarkNotificationsSeen();
  const [open, setOpen] = useState(false);
  // what was new when the list was opened stays marked as new while it is open
  const [newIds, setNewIds] = useState<ReadonlySet<string>>(new Set());

  const queryClient = useQueryClient();
  // a change made here (a consent refreshed, say) may be news: ask once after each one
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (
          event.type === 'updated' &&
          event.action.type === 'success' &&
          event.mutation.options.mutationKey?.[0] !== 'notifications'
        ) {
          void queryClient.invalidateQueries({ queryKey: getNotificationsQueryOptions().queryKey });
        }
      }),
    [queryClient],
  );

  const unseen = data?.unseen ?? 0;
  const notifications = data?.notifications ?? [];

  function openChange(next: boolean) {
    setOpen(next);
    if (!next) return;
    setNewIds(new Set(notifications.filter((n) => !n.seen).map((n) => n._id)));
    const newest = notifications[0];
    if (unseen > 0 && newest) markSeen.mutate({ upTo: newest.createdAt });
  }

  return (
    <>
      <button
        type="button"
        onClick={() => openChange(true)}
        className="relative rounded-full p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
        aria-label={unseen > 0 ? `Notifications, ${unseen} new` : 'Notifications'}
        aria-haspopup="dialog"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        {unseen > 0 && (
          <span
            data-testid="notification-dot"
            className="absolute right-1.5 top-1.5 h-2.5 w-2.5 rounded-full bg-red-600 ring-2 ring-white"
            aria-hidden="true"
          />
        )}
      </button>
      <Dialog
        open={open}
        onOpenChange={openChange}
        title="Notifications"
        description="Payments, consent changes and plan reminders."
      >
        {notifications.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">No new notifications</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Notifications">
            {notifications.map((n) => (
              <li key={n._id} className="relative">
                {newIds.has(n._id) && <span className="sr-only">New: </span>}
                <ActivityRow {...n} date={formatDateTime(n.createdAt)} />
                {newIds.has(n._id) && (
                  <span
                    className="absolute -left-3 top-6 h-2 w-2 rounded-full bg-blue-600"
                    aria-hidden="true"
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="mt-4 border-t border-slate-100 pt-4 text-right">
          <Link
            to={paths.activity}
            onClick={() => setOpen(false)}
            className="text-sm font-medium text-blue-700 hover:underline"
          >
            View all activity
          </Link>
        </div>
      </Dialog>
    </>
  );
}
