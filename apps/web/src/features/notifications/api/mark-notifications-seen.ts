import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  notificationPaths,
  type MarkNotificationsSeenRequest,
  type NotificationsResponse,
} from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { getNotificationsQueryOptions } from './get-notifications';

export const markNotificationsSeen = (body: MarkNotificationsSeenRequest) =>
  api.post(notificationPaths.seen, body, {
    schema: responseSchema('MarkNotificationsSeenResponseSchema'),
  });

export function useMarkNotificationsSeen() {
  const queryClient = useQueryClient();
  const { queryKey } = getNotificationsQueryOptions();
  return useMutation({
    mutationKey: ['notifications', 'seen'],
    mutationFn: markNotificationsSeen,
    onSuccess: ({ unseen }, { upTo }) => {
      const mark = new Date(upTo).getTime();
      queryClient.setQueryData(queryKey, (old: NotificationsResponse | undefined) =>
        old
          ? {
              ...old,
              unseen,
              notifications: old.notifications.map((n) =>
                new Date(n.createdAt).getTime() <= mark ? { ...n, seen: true } : n,
              ),
            }
          : old,
      );
      // news written after the list was read (a reminder, say) is still unseen: show it
      if (unseen > 0) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
