import * as Popover from '@radix-ui/react-popover';
import { Bell, ChevronRight } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Notification } from '@portal/contract';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { ActivityRow } from '@/ui/activity-row';
import { Button } from '@/ui/button';
import { getNotificationsQueryOptions, useNotifications } from '../api/get-notifications';
import { useMarkNotificationsSeen } from '../api/mark-notifications-seen';
import { notificationLink } from '../utils/notification-link';

function NotificationItem({
  notification,
  onFollow,
}: {
  notification: Notification;
  onFollow(): void;
}) {
  const row = <ActivityRow {...notification} date={formatDateTime(notification.createdAt)} />;
  const link = notification.target && notificationLink(notification.target);
  return (
    <li className="relative px-4 py-1">
      {!notification.seen && (
        <>
          <span className="sr-only">New: </span>
          <span
            data-testid="unread-dot"
            className="absolute left-1.5 top-7 h-2 w-2 rounded-full bg-blue-600"
            aria-hidden="true"
          />
        </>
      )}
      {link ? (
        <Link
          to={link.to}
          onClick={onFollow}
          className="-mx-2 flex items-center gap-2 rounded-md px-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <span className="min-w-0 flex-1">
            {row}
            <span className="sr-only">Open {link.label}</span>
          </span>
          <ChevronRight className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
        </Link>
      ) : (
        row
      )}
    </li>
  );
}

/**
 * The header's bell: a dot while something is unread; it opens a list anchored to it of the
 * latest payments, plan and consent changes, each leading to its order or consent. Items stay
 * marked new until "Mark all read".
 */
export function NotificationBell() {
  const { data } = useNotifications();
  const markSeen = useMarkNotificationsSeen();
  const [open, setOpen] = useState(false);

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
  const newest = notifications[0];

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="relative flex h-10 w-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
          aria-label={unseen > 0 ? `Notifications, ${unseen} new` : 'Notifications'}
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
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-label="Notifications"
          className="z-40 flex max-h-[min(32rem,calc(100dvh-6rem))] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border border-slate-200 bg-white shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-2">
            <h2 className="text-base font-semibold text-slate-900">Notifications</h2>
            {unseen > 0 && newest && (
              <Button
                variant="ghost"
                size="sm"
                className="text-blue-700"
                disabled={markSeen.isPending}
                onClick={() => markSeen.mutate({ upTo: newest.createdAt })}
              >
                Mark all read
              </Button>
            )}
          </div>
          {notifications.length === 0 ? (
            <p className="px-4 py-8 text-center text-sm text-slate-600">No new notifications</p>
          ) : (
            <ul
              className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto"
              aria-label="Latest notifications"
            >
              {notifications.map((n) => (
                <NotificationItem key={n._id} notification={n} onFollow={() => setOpen(false)} />
              ))}
            </ul>
          )}
          <div className="border-t border-slate-100 px-4 py-2 text-right">
            <Link
              to={paths.activity}
              onClick={() => setOpen(false)}
              className="inline-flex h-8 items-center text-sm font-medium text-blue-700 hover:underline"
            >
              View all activity
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
