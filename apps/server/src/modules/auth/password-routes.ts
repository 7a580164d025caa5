import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  ErrorResponseSchema,
  ForgotPasswordRequestSchema,
  ForgotPasswordResponseSchema,
  IdParamsSchema,
  ResetPasswordRequestSchema,
  ResetPasswordResponseSchema,
  authMessages,
  authPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { changePassword, countResetRequest, mailResetLink, resetPassword } from './passwords';

const bodyErrors = {
  400: ErrorResponseSchema,
  413: ErrorResponseSchema,
  415: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

export async function passwordRoutes(app: App) {
  const { deps } = app;
  app.put(
    authPaths.changePassword,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "Changes the signed-in customer's password; other sessions end",
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: ChangePasswordRequestSchema,
        response: {
          200: ChangePasswordResponseSchema,
          ...bodyErrors,
          401: ErrorResponseSchema,
          403: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      await changePassword(deps, {
        ...request.auth,
        targetId: request.params.id,
        currentPassword: request.body.currentPassword,
        password: request.body.password,
      });
      return { success: true as const, message: authMessages.passwordChanged };
    },
  );

  app.post(
    authPaths.forgotPassword,
    {
      schema: {
        tags: ['users'],
        summary: 'Mails a reset link when the account exists; the answer never tells',
        body: ForgotPasswordRequestSchema,
        response: { 200: ForgotPasswordResponseSchema, ...bodyErrors },
      },
    },
    async (request) => {
      await countResetRequest(deps, request.ip);
      // the account is looked up only after the answer, so that neither the answer nor its
      // timing tells whether it exists
      app.afterAnswer(request, () => mailResetLink(deps, request.log, request.body.email));
      return { success: true as const, message: authMessages.resetLinkSent };
    },
  );

  app.post(
    authPaths.resetPassword,
    {
      schema: {
        tags: ['users'],
        summary: 'Sets a new password with a reset link; every session ends',
        body: ResetPasswordRequestSchema,
        response: { 200: ResetPasswordResponseSchema, ...bodyErrors },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body, request.ip);
      return { success: true as const, message: authMessages.passwordReset };
    },
  );
}
