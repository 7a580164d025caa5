import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CodeMailStatusRequestSchema,
  CodeMailStatusResponseSchema,
  ErrorResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutResponseSchema,
  ProfileResponseSchema,
  RefreshTokenResponseSchema,
  ResendVerificationRequestSchema,
  ResendVerificationResponseSchema,
  Verify2faRequestSchema,
  Verify2faResponseSchema,
  VerifyRecoveryCodeRequestSchema,
  authMessages,
  authPaths,
  passkeyMessages,
  twoFactorMessages,
  twoFactorPaths,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { createAccessTokens } from './access-token';
import { sessionExpired } from './authenticate';
import { readProfile } from './profile';
import {
  codeMailStatus,
  logout,
  refreshSession,
  resendCode,
  startLogin,
  verifyLogin,
} from './service';
import type { CompletedLogin } from './complete-sign-in';
import { ABSOLUTE_LIMIT_MS, type IssuedSession } from './sessions';

/** `__Host-`: Secure, Path=/ and no Domain, so no sibling host can set or read it. */
export const REFRESH_COOKIE = '__Host-refresh';
const cookieBase = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;

export function setRefreshCookie(reply: FastifyReply, session: IssuedSession, now: Date) {
  const remaining = Math.floor(
    (session.createdAt.getTime() + ABSOLUTE_LIMIT_MS - now.getTime()) / 1000,
  );
  // without Remember me the cookie dies with the browser; with it, with the session
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    ...cookieBase,
    ...(session.rememberMe ? { maxAge: Math.max(remaining, 0) } : {}),
  });
}

/** Sign-in step two's answer, whatever proved the customer: the refresh cookie, token and user. */
export function signedIn(reply: FastifyReply, done: CompletedLogin, now: Date) {
  setRefreshCookie(reply, done.session, now);
  return {
    success: true as const,
    message: authMessages.loginSuccessful,
    token: done.token,
    user: done.user,
  };
}

function clearRefreshCookie(reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, cookieBase);
}

/**
 * The refresh cookie is SameSite=Strict already; this refuses what a browser marks as
 * cross-site anyway, for older browsers and for defence in depth.
 */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string) {
  const refuse = () => new AppError('FORBIDDEN', authMessages.crossSite);
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    throw refuse();
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    // the request's own host counts too: a browser cannot forge Host, and the development
    // proxy serves the app from another port than PUBLIC_URL names
    const allowed = [new URL(publicUrl).origin, `${request.protocol}://${request.host}`];
    if (!allowed.includes(origin)) throw refuse();
  }
}

/** What a sign-in step may answer besides its success. */
export const signInErrors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  413: ErrorResponseSchema,
  415: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

export async function authRoutes(app: App) {
  const { deps } = app;
  const tokens = createAccessTokens(deps.secrets.jwt, deps.clock);

  app.post(
    authPaths.login,
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign-in step one: every credential; mails a 6-digit code',
        body: LoginRequestSchema,
        response: { 200: LoginResponseSchema, ...signInErrors },
      },
    },
    async (request) => {
      const { tempToken, secondFactor } = await startLogin(
        deps,
        request.body,
        request.ip,
        request.headers['user-agent'],
        (work) => app.afterAnswer(request, work),
      );
      // the e-mailed path answers exactly as before; only the app and a passkey are named
      if (secondFactor !== 'email') {
        const message =
          secondFactor === 'app' ? twoFactorMessages.appCodeAsked : passkeyMessages.passkeyAsked;
        return { success: true as const, tempToken, message, secondFactor };
      }
      return { success: true as const, tempToken, message: authMessages.codeSent };
    },
  );

  app.post(
    authPaths.verify2fa,
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign-in step two: the e-mailed code; sets the refresh cookie',
        body: Verify2faRequestSchema,
        response: { 200: Verify2faResponseSchema, ...signInErrors },
      },
    },
    async (request, reply) =>
      signedIn(
        reply,
        await verifyLogin(deps, tokens, request.body, request.ip, request.headers['user-agent']),
        deps.clock.now(),
      ),
  );

  app.post(
    authPaths.resendVerification,
    {
      schema: {
        tags: ['auth'],
        summary: 'A new code for a pending sign-in; the old one stops working',
        body: ResendVerificationRequestSchema,
        response: { 200: ResendVerificationResponseSchema, ...signInErrors },
      },
    },
    async (request) => {
      await resendCode(deps, request.body.tempToken);
      return { success: true as const, message: authMessages.codeSent };
    },
  );

  app.post(
    authPaths.codeMailStatus,
    {
      schema: {
        tags: ['auth'],
        summary: "Whether a pending sign-in's newest code mail was sent, waits, or is failing",
        body: CodeMailStatusRequestSchema,
        response: { 200: CodeMailStatusResponseSchema, ...signInErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { status: await codeMailStatus(deps, request.body.tempToken, request.ip) },
    }),
  );

  app.post(
    authPaths.refreshToken,
    {
      schema: {
        tags: ['auth'],
        summary: 'A new access token for the refresh cookie, which is rotated',
        response: { 200: RefreshTokenResponseSchema, ...signInErrors },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request, deps.config.PUBLIC_URL);
      try {
        const refreshed = await refreshSession(deps, tokens, request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, refreshed.session, deps.clock.now());
        return { success: true as const, token: refreshed.token };
      } catch (error) {
        clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  app.post(
    authPaths.logout,
    {
      schema: {
        tags: ['auth'],
        summary: 'Ends the session of the refresh cookie and clears it',
        response: { 200: LogoutResponseSchema, ...signInErrors },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request, deps.config.PUBLIC_URL);
      const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
      await logout(deps, tokens, request.cookies[REFRESH_COOKIE], bearer);
      clearRefreshCookie(reply);
      return { success: true as const, message: authMessages.loggedOut };
    },
  );

  app.get(
    authPaths.profile,
    {
      // it only reads, and its statement reads the session with the profile (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in customer with the current plan',
        security: [{ bearer: [] }],
        response: { 200: ProfileResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { user, session } = await readProfile(deps, request.auth);
      await app.confirmSession(request, session);
      // Stryker disable next-line ConditionalExpression: a profile comes with its session, and confirmSession refuses a missing one first
      if (!user) throw sessionExpired();
      return { success: true as const, message: authMessages.profileFetched, data: { user } };
    },
  );

  app.post(
    twoFactorPaths.verifyRecoveryCode,
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign-in step two with a recovery code instead of the app; sets the refresh cookie',
        // public, as the sign-in steps are: step one's tempToken stands for the customer
        security: [],
        body: VerifyRecoveryCodeRequestSchema,
        response: {
          200: Verify2faResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          409: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) =>
      signedIn(
        reply,
        await verifyLogin(deps, tokens, request.body, request.ip, request.headers['user-agent']),
        deps.clock.now(),
      ),
  );
}
