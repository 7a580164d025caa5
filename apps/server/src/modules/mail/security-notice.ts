import { indiaTime, portalUrl } from './format';
import { renderLayout } from './layout';
import type { MailContext, RenderedMail } from './rendered';

/**
 * A notice that how the customer signs in changed: what changed, when, and what to do if it was
 * not them, with a link to the Security page.
 */
export async function securityChangeMail(
  notice: { subject: string; what: string; notYou: string; at: string; companyName: string },
  ctx: MailContext,
): Promise<RenderedMail> {
  const { subject, what, notYou, companyName } = notice;
  const when = indiaTime(notice.at);
  return {
    subject,
    text: [what, '', `When: ${when}`, '', notYou].join('\n'),
    html: await renderLayout({
      subject,
      preview: what,
      heading: subject,
      greeting: companyName,
      paragraphs: [what],
      facts: [['When', when]],
      notes: [notYou],
      action: { label: 'Review your security', url: portalUrl(ctx.publicUrl, '/security') },
      publicUrl: ctx.publicUrl,
    }),
  };
}
