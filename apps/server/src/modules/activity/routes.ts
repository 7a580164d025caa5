import {
  ActivityFeedQuerySchema,
  ActivityFeedResponseSchema,
  ErrorResponseSchema,
  MarkNotificationsSeenRequestSchema,
  MarkNotificationsSeenResponseSchema,
  NotificationsResponseSchema,
  activityPaths,
  notificationPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { listActivity, listNotifications, markNotificationsSeen } from './service';

export async function activityRoutes(app: App) {
  const { db, clock } = app.deps;

  app.get(
    activityPaths.feed,
    {
      // it only reads, and its statement reads the session with the page (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['activity'],
        summary: "The signed-in customer's events, newest first, a page at a time",
        security: [{ bearer: [] }],
        querystring: ActivityFeedQuerySchema,
        response: {
          200: ActivityFeedResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      const { session, ...page } = await listActivity(db, request.auth, request.query);
      await app.confirmSession(request, session);
      return { success: true as const, ...page };
    },
  );

  app.get(
    notificationPaths.list,
    {
      // it only reads, and its statement reads the session with the bell (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['activity'],
        summary: 'The bell: latest notifications and how many are unseen',
        security: [{ bearer: [] }],
        response: { 200: NotificationsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      // a plan's end and a consent's expiry are told by the reminders job, not on a look
      const { session, ...bell } = await listNotifications(db, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, ...bell };
    },
  );

  app.post(
    notificationPaths.seen,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['activity'],
        summary: 'Marks the notifications shown as seen',
        security: [{ bearer: [] }],
        body: MarkNotificationsSeenRequestSchema,
        response: {
          200: MarkNotificationsSeenResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await markNotificationsSeen(
        db,
        clock,
        request.auth.customerId,
        new Date(request.body.upTo),
      )),
    }),
  );
}
