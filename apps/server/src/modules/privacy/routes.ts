import { z } from 'zod';
import {
  CloseAccountRequestSchema,
  DataExportDownloadParamsSchema,
  DataExportRequestedResponseSchema,
  DataExportResponseSchema,
  SignedLinkQuerySchema,
  EmailChangeCodeRequestSchema,
  EmailChangeRequestSchema,
  ErrorResponseSchema,
  NotificationPreferencesResponseSchema,
  PrivacyNoticeReadRequestSchema,
  PrivacyNoticeResponseSchema,
  CorrectionRecordedResponseSchema,
  CorrectionRequestSchema,
  CorrectionsResponseSchema,
  GrievanceRecordedResponseSchema,
  GrievanceRequestSchema,
  GrievancesResponseSchema,
  NomineeRequestSchema,
  NomineeResponseSchema,
  PrivacyMessageResponseSchema,
  privacyMessages,
  privacyPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { closeAccount, sendCloseAccountCode } from './close-account';
import {
  dataExportFile,
  dataExportLinkCustomer,
  latestDataExport,
  requestDataExport,
} from './data-export';
import { confirmEmailChange, sendEmailChangeCode } from './email-change';
import { correctionsOf, requestCorrection } from './corrections';
import { markNoticeRead, noticeStatus, withdrawOptionalConsent } from './notice';
import { grievanceOfficer, grievancesOf, submitGrievance } from './grievances';
import { nomineeOf, removeNominee, saveNominee } from './nominee';

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
      await closeAccount(app.deps, request.auth.customerId, request.body, request.log);
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

  app.get(
    privacyPaths.dataExport,
    {
      ...signedIn,
      schema: {
        ...doc('The latest "Download my data" request: preparing, ready, failed or expired'),
        response: { 200: DataExportResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await latestDataExport(app.deps, request.auth.customerId),
    }),
  );

  app.post(
    privacyPaths.dataExport,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Asks for a ZIP of everything the portal holds about the customer (JSON and the invoice PDFs), prepared in the background; a link valid 24 hours is e-mailed when it is ready',
        ),
        response: { 202: DataExportRequestedResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const data = await requestDataExport(app.deps, request.auth.customerId);
      return reply
        .code(202)
        .send({ success: true as const, message: privacyMessages.exportRequested, data });
    },
  );

  app.get(
    privacyPaths.dataExportDownload,
    {
      schema: {
        tags: ['privacy'],
        summary: 'Downloads a prepared data export by the signed link of its e-mail',
        description:
          'No bearer token: the link, bound to the customer and the export, works for 24 hours after the export was ready (410 after).',
        security: [],
        params: DataExportDownloadParamsSchema,
        querystring: SignedLinkQuerySchema,
        response: {
          200: z.any(),
          400: ErrorResponseSchema,
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
          410: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { exportId } = request.params;
      const customerId = dataExportLinkCustomer(app.deps, exportId, request.query);
      const file = await dataExportFile(app.deps, customerId, exportId);
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  app.get(
    privacyPaths.nominee,
    {
      ...signedIn,
      schema: {
        ...doc('The person named to exercise your data rights on your death or incapacity'),
        response: { 200: NomineeResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Nominee fetched',
      data: { nominee: await nomineeOf(app.deps, request.auth.customerId) },
    }),
  );

  app.put(
    privacyPaths.nominee,
    {
      ...signedIn,
      schema: {
        ...doc('Names or changes your nominee, who is told by e-mail (at most five changes a day)'),
        body: NomineeRequestSchema,
        response: { 200: NomineeResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      success: true as const,
      message: privacyMessages.nomineeSaved,
      data: { nominee: await saveNominee(app.deps, request.auth.customerId, request.body) },
    }),
  );

  app.delete(
    privacyPaths.nominee,
    {
      ...signedIn,
      schema: {
        ...doc('Removes your nominee, who is told by e-mail'),
        response: {
          200: PrivacyMessageResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      await removeNominee(app.deps, request.auth.customerId);
      return { success: true as const, message: privacyMessages.nomineeRemoved };
    },
  );

  app.get(
    privacyPaths.grievances,
    {
      ...signedIn,
      schema: {
        ...doc('The grievance officer, how long an answer may take, and your grievances'),
        response: { 200: GrievancesResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Grievances fetched',
      data: {
        officer: grievanceOfficer(app.deps.config),
        grievances: await grievancesOf(app.deps, request.auth.customerId),
      },
    }),
  );

  app.post(
    privacyPaths.grievances,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Records a grievance for the grievance officer; answers its reference and due date at once (at most five a day)',
        ),
        body: GrievanceRequestSchema,
        response: { 201: GrievanceRecordedResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const grievance = await submitGrievance(app.deps, request.auth.customerId, request.body);
      return reply.code(201).send({
        success: true as const,
        message: privacyMessages.grievanceRecorded,
        data: { grievance },
      });
    },
  );

  app.get(
    privacyPaths.corrections,
    {
      ...signedIn,
      schema: {
        ...doc('Your requests to correct your company name, mobile number or GSTIN'),
        response: { 200: CorrectionsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Correction requests fetched',
      data: { corrections: await correctionsOf(app.deps, request.auth.customerId) },
    }),
  );

  app.post(
    privacyPaths.corrections,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Asks to correct a detail you sign in with; the operator decides and you are mailed the outcome (one waiting per detail, five a day)',
        ),
        body: CorrectionRequestSchema,
        response: { 201: CorrectionRecordedResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const correction = await requestCorrection(app.deps, request.auth.customerId, request.body);
      return reply.code(201).send({
        success: true as const,
        message: privacyMessages.correctionRecorded,
        data: { correction },
      });
    },
  );

  app.get(
    privacyPaths.notice,
    {
      ...signedIn,
      schema: {
        ...doc('The privacy notice’s current version, and whether you have read it'),
        response: { 200: PrivacyNoticeResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Privacy notice fetched',
      data: await noticeStatus(app.deps, request.auth.customerId),
    }),
  );

  app.post(
    privacyPaths.notice,
    {
      ...signedIn,
      schema: {
        ...doc('Records that you read this version of the privacy notice'),
        body: PrivacyNoticeReadRequestSchema,
        response: { 200: PrivacyNoticeResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      success: true as const,
      message: privacyMessages.noticeRead,
      data: await markNoticeRead(app.deps, request.auth.customerId, request.body.version),
    }),
  );

  app.post(
    privacyPaths.withdrawOptional,
    {
      ...signedIn,
      schema: {
        ...doc(
          'Withdraws your consent to everything optional at once: the reminder and consent-change e-mails',
        ),
        response: { 200: NotificationPreferencesResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: privacyMessages.optionalWithdrawn,
      data: await withdrawOptionalConsent(app.deps, request.auth.customerId),
    }),
  );
}
