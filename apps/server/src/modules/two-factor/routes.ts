import {
  DisableTwoFactorRequestSchema,
  DisableTwoFactorResponseSchema,
  EnableTwoFactorRequestSchema,
  EnableTwoFactorResponseSchema,
  ErrorResponseSchema,
  DismissInvitationResponseSchema,
  TwoFactorSetupResponseSchema,
  TwoFactorStatusResponseSchema,
  twoFactorMessages,
  twoFactorPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { disableApp, dismissInvitation, enableApp, startSetup, twoFactorStatus } from './service';

const security = [{ bearer: [] }];
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

export async function twoFactorRoutes(app: App) {
  const { deps } = app;

  app.get(
    twoFactorPaths.status,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary: 'The second factor sign-in asks for: the e-mailed code or the authenticator app',
        security,
        response: { 200: TwoFactorStatusResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: twoFactorMessages.status,
      data: await twoFactorStatus(deps, request.auth.customerId),
    }),
  );

  app.post(
    twoFactorPaths.dismissInvitation,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary:
          "Turns down the dashboard's invitation to add an authenticator app, in every browser",
        security,
        response: { 200: DismissInvitationResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      await dismissInvitation(deps, request.auth.customerId);
      return { success: true as const, message: twoFactorMessages.invitationDismissed };
    },
  );

  app.post(
    twoFactorPaths.setup,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary: 'A new authenticator secret with its QR code, waiting for its first code',
        security,
        response: { 200: TwoFactorSetupResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: twoFactorMessages.setupStarted,
      data: await startSetup(deps, request.auth.customerId),
    }),
  );

  app.post(
    twoFactorPaths.enable,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary:
          'Turns the authenticator app on: the password and a code from it; answers ten recovery codes, once',
        security,
        body: EnableTwoFactorRequestSchema,
        response: { 200: EnableTwoFactorResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: twoFactorMessages.enabled,
      data: { recoveryCodes: await enableApp(deps, request.auth.customerId, request.body) },
    }),
  );

  app.post(
    twoFactorPaths.disable,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['security'],
        summary:
          'Turns the authenticator app off: the password and a code from it or a recovery code',
        security,
        body: DisableTwoFactorRequestSchema,
        response: { 200: DisableTwoFactorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { passkeyStays } = await disableApp(deps, request.auth.customerId, request.body);
      const message = passkeyStays
        ? twoFactorMessages.disabledPasskeyStays
        : twoFactorMessages.disabled;
      return { success: true as const, message };
    },
  );
}
