import type { GrievanceOfficer } from '@portal/contract';
import { indiaTime, portalUrl } from '../mail/format';
import { renderLayout } from '../mail/layout';
import type { MailContext, RenderedMail } from '../mail/rendered';

/** What a privacy mail is made from: a code for a step, or the notice of a changed address. */
export type PrivacyMailData =
  | { kind: 'close-account-code'; code: string }
  | { kind: 'email-change-code'; code: string }
  | { kind: 'email-changed'; at: string; newEmail: string }
  | { kind: 'data-export-ready'; link: string; expiresAt: string }
  | {
      kind: 'nominee-named';
      name: string;
      companyName: string;
      relation: string;
    }
  | { kind: 'nominee-removed'; name: string; companyName: string; relation: string }
  | {
      kind: 'grievance-recorded';
      reference: string;
      topic: string;
      respondBy: string;
      officer: GrievanceOfficer;
    }
  | {
      kind: 'grievance-received';
      reference: string;
      topic: string;
      message: string;
      respondBy: string;
      companyName: string;
      customerEmail: string;
    }
  | { kind: 'grievance-answered'; reference: string; topic: string; answer: string }
  | {
      kind: 'correction-recorded';
      reference: string;
      field: string;
      requestedValue: string;
      respondBy: string;
    }
  | {
      kind: 'correction-received';
      reference: string;
      field: string;
      currentValue: string;
      requestedValue: string;
      reason: string | null;
      companyName: string;
      customerEmail: string;
    }
  | {
      kind: 'correction-decided';
      reference: string;
      field: string;
      requestedValue: string;
      outcome: 'Corrected' | 'Declined';
      note: string | null;
      /** Mobile and GSTIN: the customer signs in with the new value from now on. */
      signsInWith: boolean;
    };

declare module '../mail/templates' {
  interface MailTemplateData {
    privacy: PrivacyMailData;
  }
}

export const PRIVACY_CODE_SUBJECT = 'Your verification code';
export const EMAIL_CHANGED_SUBJECT = 'Your e-mail address was changed';
export const DATA_EXPORT_SUBJECT = 'Your data is ready to download';
export const NOMINEE_NAMED_SUBJECT = 'You were named as a nominee';
export const NOMINEE_REMOVED_SUBJECT = 'You are no longer a nominee';
export const grievanceSubject = (
  kind: 'grievance-recorded' | 'grievance-received' | 'grievance-answered',
  reference: string,
) =>
  ({
    'grievance-recorded': `Your grievance ${reference} is recorded`,
    'grievance-received': `Grievance ${reference} to answer`,
    'grievance-answered': `An answer to your grievance ${reference}`,
  })[kind];
export const correctionSubject = (data: CorrectionMail) =>
  data.kind === 'correction-recorded'
    ? `Your request ${data.reference} is recorded`
    : data.kind === 'correction-received'
      ? `Correction ${data.reference} to decide`
      : data.outcome === 'Corrected'
        ? `Your ${data.field.toLowerCase()} is corrected`
        : `Your request ${data.reference} is declined`;

const CODE_PURPOSE = {
  'close-account-code': 'Enter it in the portal within 10 minutes to close your account.',
  'email-change-code': 'Enter it in the portal within 10 minutes to confirm this new address.',
} as const;

// The text part holds exactly one 6-digit number: people and tests look for it there.
export async function privacyMail(data: PrivacyMailData, ctx: MailContext): Promise<RenderedMail> {
  const notYou = 'If this was not you, change your password at once.';
  if (data.kind === 'email-changed') {
    const when = indiaTime(data.at);
    const what = `The e-mail address of your portal account was changed to ${data.newEmail}. Mail goes to the new address from now on.`;
    return {
      subject: EMAIL_CHANGED_SUBJECT,
      text: [what, '', `When: ${when}`, '', notYou].join('\n'),
      html: await renderLayout({
        subject: EMAIL_CHANGED_SUBJECT,
        preview: what,
        heading: EMAIL_CHANGED_SUBJECT,
        paragraphs: [what],
        facts: [['When', when]],
        notes: [notYou],
        action: { label: 'Reset your password', url: portalUrl(ctx.publicUrl, '/reset-password') },
        publicUrl: ctx.publicUrl,
      }),
    };
  }
  if (
    data.kind === 'grievance-recorded' ||
    data.kind === 'grievance-received' ||
    data.kind === 'grievance-answered'
  ) {
    return grievanceMail(data, ctx);
  }
  if (
    data.kind === 'correction-recorded' ||
    data.kind === 'correction-received' ||
    data.kind === 'correction-decided'
  ) {
    return correctionMail(data, ctx);
  }
  if (data.kind === 'nominee-named' || data.kind === 'nominee-removed') {
    const named = data.kind === 'nominee-named';
    const subject = named ? NOMINEE_NAMED_SUBJECT : NOMINEE_REMOVED_SUBJECT;
    const what = named
      ? `${data.companyName} named you, as their ${data.relation.toLowerCase()}, the nominee of their customer portal account. If they die or become unable to act, you may ask for their personal data to be seen, corrected or erased on their behalf, under the Digital Personal Data Protection Act, 2023.`
      : `${data.companyName} no longer names you as the nominee of their customer portal account.`;
    const nothing = named
      ? 'You need do nothing now. Keep this mail: it tells you who named you.'
      : 'You need do nothing.';
    return {
      subject,
      text: [`Dear ${data.name},`, '', what, '', nothing].join('\n'),
      html: await renderLayout({
        subject,
        preview: what,
        heading: subject,
        paragraphs: [`Dear ${data.name},`, what],
        notes: [nothing],
        publicUrl: ctx.publicUrl,
      }),
    };
  }
  if (data.kind === 'data-export-ready') {
    const until = indiaTime(data.expiresAt);
    const what =
      'The copy of your data you asked for is ready: a ZIP file with everything the portal holds about you, and your invoice PDFs.';
    const notAsked = 'If you did not ask for it, do not open the link, and change your password.';
    return {
      subject: DATA_EXPORT_SUBJECT,
      text: [
        what,
        '',
        `Download it: ${data.link}`,
        '',
        `The link works until ${until}.`,
        notYou,
      ].join('\n'),
      html: await renderLayout({
        subject: DATA_EXPORT_SUBJECT,
        preview: what,
        heading: DATA_EXPORT_SUBJECT,
        paragraphs: [what],
        facts: [['Link works until', until]],
        notes: [notAsked],
        action: { label: 'Download your data', url: data.link },
        publicUrl: ctx.publicUrl,
      }),
    };
  }
  const enter = CODE_PURPOSE[data.kind];
  return {
    subject: PRIVACY_CODE_SUBJECT,
    text: [`Your verification code is ${data.code}`, '', enter, notYou].join('\n'),
    html: await renderLayout({
      subject: PRIVACY_CODE_SUBJECT,
      preview: `${data.code} is your verification code. ${enter}`,
      heading: PRIVACY_CODE_SUBJECT,
      paragraphs: ['Your verification code is'],
      code: data.code,
      notes: [enter, notYou],
      publicUrl: ctx.publicUrl,
    }),
  };
}

type GrievanceMail = Extract<
  PrivacyMailData,
  { kind: 'grievance-recorded' | 'grievance-received' | 'grievance-answered' }
>;

/** The acknowledgement to the customer, the grievance to the officer, and the answer. */
async function grievanceMail(data: GrievanceMail, ctx: MailContext): Promise<RenderedMail> {
  const subject = grievanceSubject(data.kind, data.reference);
  const facts: [string, string][] = [
    ['Reference', data.reference],
    ['About', data.topic],
  ];
  let paragraphs: string[];
  if (data.kind === 'grievance-recorded') {
    const due = indiaTime(data.respondBy);
    facts.push(['Answer due by', due]);
    paragraphs = [
      `We have recorded your grievance. ${data.officer.name}, our grievance officer, will answer it by ${due}.`,
      `Quote ${data.reference} when you write to ${data.officer.email}.`,
    ];
  } else if (data.kind === 'grievance-received') {
    facts.push(['From', `${data.companyName} (${data.customerEmail})`]);
    facts.push(['Answer due by', indiaTime(data.respondBy)]);
    paragraphs = [
      data.message,
      `Answer it with: npm run admin -- grievances:answer --reference ${data.reference} --answer "..."`,
    ];
  } else {
    paragraphs = [data.answer];
  }
  return requestMail(subject, facts, paragraphs, data.kind !== 'grievance-received', ctx);
}

type CorrectionMail = Extract<
  PrivacyMailData,
  { kind: 'correction-recorded' | 'correction-received' | 'correction-decided' }
>;

/** The acknowledgement to the customer, the request to the operator, and the outcome. */
async function correctionMail(data: CorrectionMail, ctx: MailContext): Promise<RenderedMail> {
  const facts: [string, string][] = [
    ['Reference', data.reference],
    ['Detail', data.field],
  ];
  let paragraphs: string[];
  if (data.kind === 'correction-recorded') {
    const due = indiaTime(data.respondBy);
    facts.push(['Correct value', data.requestedValue], ['Decided by', due]);
    paragraphs = [
      `We have recorded your request to correct your ${data.field.toLowerCase()}. We will decide it by ${due} and e-mail you the outcome.`,
    ];
  } else if (data.kind === 'correction-received') {
    facts.push(['Now', data.currentValue], ['Asked for', data.requestedValue]);
    facts.push(['From', `${data.companyName} (${data.customerEmail})`]);
    paragraphs = [
      ...(data.reason ? [data.reason] : []),
      `Correct it with: npm run admin -- corrections:decide --reference ${data.reference} --correct`,
      `Or decline it with: npm run admin -- corrections:decide --reference ${data.reference} --decline --note "..."`,
    ];
  } else if (data.outcome === 'Corrected') {
    facts.push(['Now', data.requestedValue]);
    paragraphs = [
      `Your ${data.field.toLowerCase()} is now ${data.requestedValue}.`,
      ...(data.signsInWith ? [`Sign in with it from now on.`] : []),
      ...(data.note ? [data.note] : []),
    ];
  } else {
    paragraphs = [
      `We could not make the correction you asked for: ${data.note ?? ''}`,
      'You can ask again on the Privacy page, or raise a grievance there.',
    ];
  }
  return requestMail(
    correctionSubject(data),
    facts,
    paragraphs,
    data.kind !== 'correction-received',
    ctx,
  );
}

/** A mail about a request: its facts, then its words, and a link to the Privacy page for the customer. */
async function requestMail(
  subject: string,
  facts: [string, string][],
  paragraphs: string[],
  toCustomer: boolean,
  ctx: MailContext,
): Promise<RenderedMail> {
  const text = [...facts.map(([label, value]) => `${label}: ${value}`), '', ...paragraphs];
  return {
    subject,
    text: text.join('\n'),
    html: await renderLayout({
      subject,
      preview: paragraphs[0]!,
      heading: subject,
      paragraphs,
      facts,
      ...(toCustomer
        ? {
            action: {
              label: 'See it on the Privacy page',
              url: portalUrl(ctx.publicUrl, '/privacy'),
            },
          }
        : {}),
      publicUrl: ctx.publicUrl,
    }),
  };
}
