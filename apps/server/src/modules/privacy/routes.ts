import {
  CloseAccountRequestSchema,
  EmailChangeCodeRequestSchema,
  EmailChangeRequestSchema,
  ErrorResponseSchema,
  PrivacyMessageResponseSchema,
  privacyMessages,
  privacyPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { closeAccount, sendCloseAccountCode } from './close-account';
import { confirmEmailChange, sendEmailChangeCode } from './email-change';

const refusals = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
  415: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

export async function privacyRoutes(app: App) {
  const signedIn = { preHandler: app.authenticate };
  const doc = (summary: string) => ({
    tags: ['privacy'],
    summary,
    security: [{ bearer: [] }],
  });

  app.post(
    privacyPaths.closeAccountCode,
    {
      ...signedIn,
      schema: {
        ...doc('Mails a 6-digit code to the account address, needed to close the account'),
        response: { 200: PrivacyMessageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      await sendCloseAccountCode(app.deps, request.auth.customerId);
      return { success: true as const, message: privacyMessages.codeSent };
    },
  );

  app.post(
    privacyPaths.closeAccount,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Closes the account with the password and the code: every session ended, every consent revoked at the bank, personal data erased; invoices and orders kept 72 months',
        ),
        body: CloseAccountRequestSchema,
        response: { 200: PrivacyMessageResponseSchema, ...refusals, 502: ErrorResponseSchema },
      },
    },
    async (request) => {
      await closeAccount(app.deps, request.auth.customerId, request.body);
      return { success: true as const, message: privacyMessages.closed };
    },
  );

  app.post(
    privacyPaths.emailChangeCode,
    {
      ...signedIn,
      schema: {
        ...doc('Mails a code to a new e-mail address (the password is asked again)'),
        body: EmailChangeCodeRequestSchema,
        response: { 200: PrivacyMessageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      await sendEmailChangeCode(app.deps, request.auth.customerId, request.body);
      return { success: true as const, message: privacyMessages.newEmailCodeSent };
    },
  );

  app.post(
    privacyPaths.emailChange,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Moves the account to the new address with the code sent to it; the old address is told',
        ),
        body: EmailChangeRequestSchema,
        response: { 200: PrivacyMessageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      await confirmEmailChange(app.deps, request.auth.customerId, request.body);
      return { success: true as const, message: privacyMessages.emailChanged };
    },
  );
}
