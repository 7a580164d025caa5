import { customerDate, reconnectConsentLink } from '@portal/contract';
import { portalUrl } from '../mail/format';
import { renderNoticeMail } from '../mail/layout';
import type { MailContext, RenderedMail } from '../mail/rendered';

/** What a reminder mail is made from: a plan's end or a consent's expiry, days ahead. */
export type ReminderMailData =
  | {
      about: 'plan';
      companyName: string;
      planName: string;
      endsAt: string;
      daysLeft: number;
      /** The portal path Renew opens: the order form for the plan, or the Plans screen. */
      renewPath: string;
    }
  | {
      about: 'consent';
      /** The consent's record id, which the screen's Reconnect link names. */
      id: string;
      companyName: string;
      partnerName: string;
      consentId: string;
      expiresAt: string;
      daysLeft: number;
    };

declare module '../mail/templates' {
  interface MailTemplateData {
    reminder: ReminderMailData;
  }
}

const inDays = (n: number) => `in ${n} ${n === 1 ? 'day' : 'days'}`;

/** The subject of a reminder: what ends, and when. */
export function reminderSubject(data: ReminderMailData): string {
  return data.about === 'plan'
    ? `Your ${data.planName} plan ends ${inDays(data.daysLeft)}`
    : `Your consent for ${data.partnerName} expires ${inDays(data.daysLeft)}`;
}

function wording(data: ReminderMailData, publicUrl: string) {
  if (data.about === 'plan') {
    return {
      what: `Your ${data.planName} plan ends on ${customerDate(new Date(data.endsAt))}, ${inDays(data.daysLeft)}.`,
      why: 'A renewal bought now starts when the current plan ends, so no paid day is lost.',
      facts: [
        ['Plan', data.planName],
        ['Ends on', customerDate(new Date(data.endsAt))],
      ] as [string, string][],
      action: { label: 'Renew', url: portalUrl(publicUrl, data.renewPath) },
    };
  }
  return {
    what: `Your banking consent for ${data.partnerName} expires on ${customerDate(new Date(data.expiresAt))}, ${inDays(data.daysLeft)}.`,
    why: `After that, ${data.partnerName} will no longer be able to read your bank data until you reconnect it.`,
    facts: [
      ['Partner', data.partnerName],
      ['Consent', data.consentId],
      ['Expires on', customerDate(new Date(data.expiresAt))],
    ] as [string, string][],
    action: {
      label: 'Reconnect',
      url: portalUrl(publicUrl, reconnectConsentLink(data.id)),
    },
  };
}

export async function reminderMail(
  data: ReminderMailData,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = reminderSubject(data);
  const { what, why, facts, action } = wording(data, ctx.publicUrl);
  return renderNoticeMail({
    subject,
    companyName: data.companyName,
    what,
    why,
    facts,
    action,
    note: 'You can turn reminders off in your notification preferences.',
    publicUrl: ctx.publicUrl,
  });
}
