import {
  EndOtherSessionsResponseSchema,
  EndSessionByLinkRequestSchema,
  EndSessionByLinkResponseSchema,
  EndSessionResponseSchema,
  ErrorResponseSchema,
  LastSignInResponseSchema,
  SessionParamsSchema,
  SessionsResponseSchema,
  SignInHistoryQuerySchema,
  SignInHistoryResponseSchema,
  securityMessages,
  securityPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import {
  endOtherSessions,
  endSession,
  endSessionByLink,
  lastSignIn,
  listSessions,
  listSignIns,
} from './service';

const security = [{ bearer: [] }];

export async function securityRoutes(app: App) {
  const { db, clock } = app.deps;

  app.get(
    securityPaths.sessions,
    {
      // it only reads, and its statement reads the session with the list (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['security'],
        summary: "The signed-in customer's live sessions, this one marked current",
        security,
        response: { 200: SessionsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { session, data } = await listSessions(db, clock, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, message: securityMessages.sessionsFetched, data };
    },
  );

  app.delete(
    securityPaths.session,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary: "Signs out one of the customer's sessions at once, on every instance",
        security,
        params: SessionParamsSchema,
        response: {
          200: EndSessionResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      await endSession(db, clock, request.auth, request.params.id);
      return { success: true as const, message: securityMessages.sessionEnded };
    },
  );

  app.post(
    securityPaths.endOtherSessions,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary: "Signs out every session of the customer but the request's own",
        security,
        response: { 200: EndOtherSessionsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: securityMessages.otherSessionsEnded,
      data: { ended: await endOtherSessions(db, clock, request.auth) },
    }),
  );

  app.get(
    securityPaths.signIns,
    {
      preHandler: app.authenticateRead,
      schema: {
        tags: ['security'],
        summary: 'Sign-ins and refused attempts, newest first, a page at a time',
        security,
        querystring: SignInHistoryQuerySchema,
        response: {
          200: SignInHistoryResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listSignIns(db, clock, request.auth.customerId, request.query)),
    }),
  );

  app.get(
    securityPaths.lastSignIn,
    {
      preHandler: app.authenticateRead,
      schema: {
        tags: ['security'],
        summary: 'The successful sign-in before the one of this session, for the dashboard',
        security,
        response: { 200: LastSignInResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await lastSignIn(db, request.auth) }),
  );

  app.post(
    securityPaths.endSessionByLink,
    {
      schema: {
        tags: ['security'],
        summary: "Ends the session a new-browser notice's link names; the link works once",
        description: "No bearer token: the link's single-use token is in the body.",
        security: [],
        body: EndSessionByLinkRequestSchema,
        response: {
          200: EndSessionByLinkResponseSchema,
          400: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: securityMessages.sessionEnded,
      data: await endSessionByLink(db, clock, request.body.token),
    }),
  );
}
