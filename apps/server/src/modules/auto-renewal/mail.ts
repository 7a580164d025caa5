import {
  customerDate,
  formatPaise,
  mandateMethodLabel,
  type MandateMethod,
} from '@portal/contract';
import { portalUrl } from '../mail/format';
import { renderNoticeMail } from '../mail/layout';
import type { MailContext, RenderedMail } from '../mail/rendered';

/** What an auto-renewal mail is made from: a debit coming up, or charges that stopped. */
export type AutoRenewalMailData =
  | {
      about: 'pre-debit';
      companyName: string;
      planName: string;
      amountPaise: number;
      chargeAt: string;
      method: MandateMethod | null;
    }
  | {
      about: 'halted';
      companyName: string;
      planName: string;
      /** The end of the last period paid for. */
      planEndsAt: string | null;
    };

declare module '../mail/templates' {
  interface MailTemplateData {
    'auto-renewal': AutoRenewalMailData;
  }
}

/** Where the customer sees and turns off auto-renewal. */
export const AUTO_RENEWAL_SCREEN = '/plans';

export function autoRenewalSubject(data: AutoRenewalMailData): string {
  return data.about === 'pre-debit'
    ? `${formatPaise(data.amountPaise)} will be debited on ${customerDate(new Date(data.chargeAt))}`
    : `Automatic payments for your ${data.planName} plan stopped`;
}

function wording(data: AutoRenewalMailData) {
  if (data.about === 'pre-debit') {
    const on = customerDate(new Date(data.chargeAt));
    return {
      what: `Your ${data.planName} plan renews automatically: ${formatPaise(data.amountPaise)} will be debited on ${on}.`,
      why: 'You can turn auto-renewal off before then, and nothing will be debited.',
      facts: [
        ['Plan', data.planName],
        ['Amount', formatPaise(data.amountPaise)],
        ['Debit date', on],
        ...(data.method ? [['Method', mandateMethodLabel[data.method]]] : []),
      ] as [string, string][],
      label: 'See auto-renewal',
    };
  }
  const ends = data.planEndsAt ? customerDate(new Date(data.planEndsAt)) : null;
  return {
    what: `The automatic payments for your ${data.planName} plan failed several times, and have stopped.`,
    why: ends
      ? `Your plan ends on ${ends} unless you update your payment method.`
      : 'Update your payment method to keep your plan.',
    facts: [['Plan', data.planName], ...(ends ? [['Ends on', ends]] : [])] as [string, string][],
    label: 'Update payment method',
  };
}

export async function autoRenewalMail(
  data: AutoRenewalMailData,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = autoRenewalSubject(data);
  const { what, why, facts, label } = wording(data);
  return renderNoticeMail({
    subject,
    companyName: data.companyName,
    what,
    why,
    facts,
    action: { label, url: portalUrl(ctx.publicUrl, AUTO_RENEWAL_SCREEN) },
    publicUrl: ctx.publicUrl,
  });
}
