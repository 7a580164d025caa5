import { z } from 'zod';
import { VERIFICATION_CODE_LENGTH } from './constants';
import { gstinProblem } from './gst';
import { text } from './primitives';

/** The customer's own data (India's DPDP Act, 2023): closing the account, changing the e-mail. */
export const privacyPaths = {
  closeAccountCode: '/api/privacy/close-account/code',
  closeAccount: '/api/privacy/close-account',
  emailChangeCode: '/api/privacy/email/code',
  emailChange: '/api/privacy/email',
  dataExport: '/api/privacy/data-export',
  dataExportDownload: '/api/privacy/data-export/:exportId/download',
  /** The person named to exercise the customer's rights on their death or incapacity. */
  nominee: '/api/privacy/nominee',
  /** Grievances to the grievance officer, with the officer's contact (DPDP Rules, rule 14). */
  grievances: '/api/privacy/grievances',
  /** Requests to correct what the customer cannot change themselves (DPDP Act 2023, s. 12). */
  corrections: '/api/privacy/corrections',
  /** The privacy notice: whether the customer has read this version, and reading it. */
  notice: '/api/privacy/notice',
  /** Withdraws consent to everything optional at once (DPDP Act 2023, s. 6(4)). */
  withdrawOptional: '/api/privacy/optional-processing/withdraw',
} as const;

/** The signed link's path of one prepared export. */
export const dataExportDownloadPath = (exportId: string) =>
  privacyPaths.dataExportDownload.replace(':exportId', encodeURIComponent(exportId));

export const privacyMessages = {
  codeSent: 'We sent a 6-digit code to your e-mail address.',
  newEmailCodeSent: 'We sent a 6-digit code to the new address. Enter it to confirm the change.',
  closed:
    'Your account is closed. Your invoices and orders are kept for 72 months, as GST law requires.',
  emailChanged: 'Your e-mail address was changed.',
  wrongPassword: 'The password is not correct.',
  wrongCode: 'The code is not correct, or it has expired. Ask for a new code.',
  tooManyTries: 'Too many wrong codes. Ask for a new code.',
  noCode: 'Ask for a code first.',
  waitForCode: 'A code was sent less than a minute ago. Please wait before asking again.',
  emailTaken: 'This e-mail address is already used by another account.',
  sameEmail: 'This is already your e-mail address.',
  alreadyClosed: 'This account is already closed.',
  exportRequested:
    'We are preparing your data. We will e-mail you a link to download it, valid for 24 hours.',
  exportPreparing: 'Your data is already being prepared. We will e-mail you when it is ready.',
  exportTooSoon:
    'Your data was prepared less than an hour ago. Use the link in that e-mail, or ask again later.',
  exportGone: 'This download has expired. Ask for your data again on the Privacy page.',
  exportMissing: 'This download does not exist.',
  nomineeSaved: 'Your nominee is saved. We have told them by e-mail.',
  nomineeRemoved: 'Your nominee is removed. We have told them by e-mail.',
  nomineeIsYou: 'Name someone other than yourself.',
  noNominee: 'You have not named a nominee.',
  grievanceRecorded: 'Your grievance is recorded. Keep its reference.',
  correctionRecorded: 'Your request is recorded. We will e-mail you the outcome.',
  noticeRead: 'Thank you for reading the privacy notice.',
  noticeChanged: 'The privacy notice has changed. Please read the new one.',
  optionalWithdrawn:
    'Consent withdrawn: we no longer send you reminders or consent-change e-mails. You can turn each back on below.',
} as const;

const PasswordSchema = text({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(256);

const CodeSchema = text({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .regex(
    new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`),
    'Enter the 6-digit code from the e-mail',
  );

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `POST /api/privacy/close-account`: the password and the e-mailed code. */
export const CloseAccountRequestSchema = z
  .object({ password: PasswordSchema, code: CodeSchema })
  .strict();
export type CloseAccountRequest = z.infer<typeof CloseAccountRequestSchema>;

/** `POST /api/privacy/email/code`: the new address, and the password as a second proof. */
export const EmailChangeCodeRequestSchema = z
  .object({
    newEmail: text({ error: 'Email is required' })
      .trim()
      .toLowerCase()
      .min(1, 'Email is required')
      .max(254, 'Email can be at most 254 characters')
      .regex(EMAIL_PATTERN, 'Invalid email address'),
    password: PasswordSchema,
  })
  .strict();
export type EmailChangeCodeRequest = z.infer<typeof EmailChangeCodeRequestSchema>;

/** `POST /api/privacy/email`: the code sent to the new address. */
export const EmailChangeRequestSchema = z.object({ code: CodeSchema }).strict();
export type EmailChangeRequest = z.infer<typeof EmailChangeRequestSchema>;

export const PrivacyMessageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type PrivacyMessageResponse = z.infer<typeof PrivacyMessageResponseSchema>;

/** A "Download my data" request; `expired` once its 24 hours are over (the file is gone then). */
export const DATA_EXPORT_STATUSES = ['preparing', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const DataExportSchema = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  requestedAt: z.string(),
  readyAt: z.string().nullable(),
  /** When the e-mailed link stops working. */
  expiresAt: z.string().nullable(),
});
export type DataExport = z.infer<typeof DataExportSchema>;

/** `GET /api/privacy/data-export`: the latest request, or null when there was none. */
export const DataExportResponseSchema = z.object({
  success: z.literal(true),
  data: DataExportSchema.nullable(),
});
export type DataExportResponse = z.infer<typeof DataExportResponseSchema>;

/** `POST /api/privacy/data-export` (202): the request now preparing. */
export const DataExportRequestedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: DataExportSchema,
});
export type DataExportRequestedResponse = z.infer<typeof DataExportRequestedResponseSchema>;

/** `GET /api/privacy/data-export/:exportId/download`, with the signed link's query. */
export const DataExportDownloadParamsSchema = z.object({
  exportId: z.uuid({ error: 'This download does not exist.' }),
});

/** Who a nominee is to the customer (DPDP Act 2023, s. 14: death or incapacity). */
export const NOMINEE_RELATIONS = [
  'Spouse',
  'Parent',
  'Child',
  'Sibling',
  'Other relative',
  'Business partner',
  'Legal representative',
] as const;

/** `PUT /api/privacy/nominee`: the person, their address and who they are to the customer. */
export const NomineeRequestSchema = z
  .object({
    name: text({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(100, 'Name can be at most 100 characters'),
    email: text({ error: 'Email is required' })
      .trim()
      .toLowerCase()
      .min(1, 'Email is required')
      .max(254, 'Email can be at most 254 characters')
      .regex(EMAIL_PATTERN, 'Invalid email address'),
    relation: z.enum(NOMINEE_RELATIONS, { error: 'Choose who they are to you' }),
  })
  .strict();
export type NomineeRequest = z.infer<typeof NomineeRequestSchema>;

export const NomineeSchema = NomineeRequestSchema.extend({
  /** When they were first named; a change keeps it. */
  nominatedAt: z.string(),
  updatedAt: z.string(),
});
export type Nominee = z.infer<typeof NomineeSchema>;

export const NomineeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ nominee: NomineeSchema.nullable() }),
});
export type NomineeResponse = z.infer<typeof NomineeResponseSchema>;

/** What a grievance is about, in the customer's words. */
export const GRIEVANCE_TOPICS = [
  'My personal data is wrong',
  'My data was used or shared without my consent',
  'A request of mine was not handled',
  'Something else',
] as const;

/** `POST /api/privacy/grievances`. */
export const GrievanceRequestSchema = z
  .object({
    topic: z.enum(GRIEVANCE_TOPICS, { error: 'Choose what it is about' }),
    message: text({ error: 'Tell us what happened' })
      .trim()
      .min(10, 'Tell us what happened, in at least 10 characters')
      .max(2000, 'Your message can be at most 2,000 characters'),
  })
  .strict();
export type GrievanceRequest = z.infer<typeof GrievanceRequestSchema>;

export const GrievanceSchema = GrievanceRequestSchema.extend({
  /** What the customer and the officer name it by, e.g. GRV-7Q2K9M4T. */
  reference: z.string(),
  submittedAt: z.string(),
  /** When the officer must have answered by. */
  respondBy: z.string(),
  status: z.enum(['Open', 'Answered']),
  answeredAt: z.string().nullable(),
  answer: z.string().nullable(),
});
export type Grievance = z.infer<typeof GrievanceSchema>;

/** The grievance officer, as configured, and how long an answer may take. */
export const GrievanceOfficerSchema = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  responseDays: z.number().int().positive(),
});
export type GrievanceOfficer = z.infer<typeof GrievanceOfficerSchema>;

export const GrievancesResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ officer: GrievanceOfficerSchema, grievances: z.array(GrievanceSchema) }),
});
export type GrievancesResponse = z.infer<typeof GrievancesResponseSchema>;

export const GrievanceRecordedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ grievance: GrievanceSchema }),
});
export type GrievanceRecordedResponse = z.infer<typeof GrievanceRecordedResponseSchema>;

/**
 * The details a customer cannot change themselves, so asks to have corrected: the mobile number
 * and GSTIN they sign in with, and the company name on their invoices.
 */
export const CORRECTABLE_FIELDS = ['companyName', 'mobile', 'gstNo'] as const;
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];

export const correctableFieldLabels: Record<CorrectableField, string> = {
  companyName: 'Company name',
  mobile: 'Mobile number',
  gstNo: 'GSTIN',
};

/** An Indian mobile number: ten digits from 6 to 9, optionally after +91 or 0. */
const MOBILE_PATTERN = /^(?:\+91|0)?[6-9]\d{9}$/;

const reasonField = text().trim().max(500, 'The reason can be at most 500 characters').optional();

/** `POST /api/privacy/corrections`: the field, its correct value, and why. */
export const CorrectionRequestSchema = z.discriminatedUnion(
  'field',
  [
    z
      .object({
        field: z.literal('companyName'),
        value: text({ error: 'Enter the correct company name' })
          .trim()
          .min(2, 'Enter the correct company name')
          .max(200, 'The company name can be at most 200 characters'),
        reason: reasonField,
      })
      .strict(),
    z
      .object({
        field: z.literal('mobile'),
        value: text({ error: 'Enter the correct mobile number' })
          .transform((value) => value.replace(/[\s-]/g, ''))
          .pipe(
            z
              .string()
              .regex(MOBILE_PATTERN, 'Enter a 10-digit Indian mobile number, optionally after +91'),
          ),
        reason: reasonField,
      })
      .strict(),
    z
      .object({
        field: z.literal('gstNo'),
        value: text({ error: 'Enter the correct GSTIN' })
          .transform((value) => value.replace(/\s/g, '').toUpperCase())
          .superRefine((gstin, ctx) => {
            const problem = gstinProblem(gstin);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        reason: reasonField,
      })
      .strict(),
  ],
  { error: 'Choose what to correct' },
);
export type CorrectionRequest = z.input<typeof CorrectionRequestSchema>;
/** The request as the server reads it: the value as compared and stored. */
export type CorrectionRequestBody = z.infer<typeof CorrectionRequestSchema>;

export const CorrectionSchema = z.object({
  /** What the customer and the operator name it by, e.g. COR-7Q2K9M4T. */
  reference: z.string(),
  field: z.enum(CORRECTABLE_FIELDS),
  /** The value when the request was made, and the one asked for. */
  currentValue: z.string(),
  requestedValue: z.string(),
  reason: z.string().nullable(),
  submittedAt: z.string(),
  /** When it must be decided by. */
  respondBy: z.string(),
  status: z.enum(['Waiting', 'Corrected', 'Declined']),
  decidedAt: z.string().nullable(),
  /** The operator's words with the decision. */
  note: z.string().nullable(),
});
export type Correction = z.infer<typeof CorrectionSchema>;

export const CorrectionsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ corrections: z.array(CorrectionSchema) }),
});
export type CorrectionsResponse = z.infer<typeof CorrectionsResponseSchema>;

export const CorrectionRecordedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ correction: CorrectionSchema }),
});
export type CorrectionRecordedResponse = z.infer<typeof CorrectionRecordedResponseSchema>;

/**
 * The privacy notice (DPDP Act 2023, s. 5), in plain words: what the portal processes, why, and
 * what the customer can do. Its version changes with its words, and a changed notice is shown
 * again.
 */
export const PRIVACY_NOTICE_VERSION = '2026-12-02';

export const PRIVACY_NOTICE: readonly { heading: string; text: string }[] = [
  {
    heading: 'What we hold',
    text: 'Your company name, e-mail address, mobile number, GSTIN and Tally serial number; your billing address; your orders, payments, invoices and plans; the banking consents you grant to partners and when partners read under them; and a record of your sign-ins (time, device and approximate place).',
  },
  {
    heading: 'Why we hold it',
    text: 'To sign you in safely, to sell and renew your plan and issue GST invoices, to let you manage the consents your bank holds, and to keep your account secure. We keep invoices and orders for 72 months after the year they belong to, as GST law requires.',
  },
  {
    heading: 'What is optional',
    text: 'Reminder e-mails before your plan or a consent ends, and e-mails when the bank changes one of your consents. You can withdraw your consent to these at any time, in one step, on the Privacy page; everything else is needed to provide the portal.',
  },
  {
    heading: 'Who sees it',
    text: 'Our payment gateway sees your payments; the partners you grant consents to see what those consents cover at your bank; nobody else. We never sell your data.',
  },
  {
    heading: 'Your rights',
    text: 'On the Privacy page you can download your data, ask us to correct it, name a nominee, raise a grievance with our grievance officer, withdraw optional consent, and close your account.',
  },
];

export const PrivacyNoticeStatusSchema = z.object({
  /** The notice's current version. */
  version: z.string(),
  /** When the customer read this version; null when they have not. */
  readAt: z.string().nullable(),
});
export type PrivacyNoticeStatus = z.infer<typeof PrivacyNoticeStatusSchema>;

export const PrivacyNoticeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: PrivacyNoticeStatusSchema,
});
export type PrivacyNoticeResponse = z.infer<typeof PrivacyNoticeResponseSchema>;

/** `POST /api/privacy/notice`: the version the customer read. */
export const PrivacyNoticeReadRequestSchema = z
  .object({ version: text({ error: 'version is required' }).min(1).max(20) })
  .strict();
export type PrivacyNoticeReadRequest = z.infer<typeof PrivacyNoticeReadRequestSchema>;
