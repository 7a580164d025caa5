import type { NotificationTarget } from '@portal/contract';
import { paths } from '@/config/paths';
import { formatOrderRef } from '@/lib/format';

/** Where a notification leads: its order marked in the history, or its consent found by its id. */
export function notificationLink(target: NotificationTarget): { to: string; label: string } {
  if (target.kind === 'order') {
    return {
      to: `${paths.orders}?${new URLSearchParams({ tab: 'history', order: target.id })}`,
      label: `Order ${formatOrderRef(target.id)}`,
    };
  }
  return {
    to: `${paths.consents}?${new URLSearchParams({ search: target.id })}`,
    label: `Consent ${target.id}`,
  };
}
