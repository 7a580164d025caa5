import mjml2html from 'mjml';
import { markup, type SafeMarkup } from './markup';

/** The portal's name and colours, as the web app's sign-in panel and sidebar show them. */
export const BRAND = {
  name: 'Connected Banking Portal',
  navy: '#1e3a8a', // blue-900: the sign-in panel
  blue: '#2563eb', // blue-600: buttons and the current page
  ink: '#0f172a', // slate-900
  muted: '#475569', // slate-600
  page: '#f1f5f9', // slate-100
  // system fonts only: a bank's mail loads nothing from elsewhere when opened
  font: "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', Arial, sans-serif",
} as const;

export interface Layout {
  subject: string;
  /** What a mail client shows beside the subject before the mail is opened. */
  preview: string;
  heading: string;
  /** The greeting's name: the customer's company, when the mail knows it. */
  greeting?: string;
  paragraphs: (string | SafeMarkup)[];
  /** A one-time code, shown large. */
  code?: string;
  /** Labelled values: when, what, which. */
  facts?: [label: string, value: string][];
  /** Paragraphs after the code and facts. */
  notes?: (string | SafeMarkup)[];
  action?: { label: string; url: string };
  /** Where the portal is, for the footer's link. */
  publicUrl: string;
  /** Mail to the portal's operator, not about a customer's account: its footer says so. */
  toOperator?: boolean;
}

const text = (content: string | SafeMarkup) => markup`<mj-text>${content}</mj-text>`;

/** The one frame of every mail: brand bar, heading, body (code, facts, notes, button), footer. */
export async function renderLayout(layout: Layout): Promise<string> {
  const home = layout.publicUrl.replace(/\/$/, '');
  const source = markup`<mjml lang="en">
  <mj-head>
    <mj-title>${layout.subject}</mj-title>
    <mj-preview>${layout.preview}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${BRAND.font}" />
      <mj-text color="${BRAND.ink}" font-size="15px" line-height="22px" padding="6px 0" />
      <mj-button background-color="${BRAND.blue}" color="#ffffff" font-size="15px" font-weight="600" border-radius="6px" inner-padding="12px 22px" align="left" padding="14px 0 6px" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="${BRAND.page}" width="600px">
    <mj-section background-color="${BRAND.navy}" padding="18px 28px">
      <mj-column>
        <mj-text color="#ffffff" font-size="18px" font-weight="600" padding="0">${BRAND.name}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="26px 28px">
      <mj-column>
        <mj-text font-size="21px" line-height="28px" font-weight="700" padding="0 0 10px">${layout.heading}</mj-text>
        ${layout.greeting === undefined ? '' : text(`Dear ${layout.greeting},`)}
        ${layout.paragraphs.map(text)}
        ${
          layout.code === undefined
            ? ''
            : markup`<mj-text font-size="32px" line-height="40px" font-weight="700" letter-spacing="6px" color="${BRAND.navy}" padding="12px 0">${layout.code}</mj-text>`
        }
        ${
          layout.facts === undefined
            ? ''
            : markup`<mj-table font-size="14px" line-height="20px" color="${BRAND.ink}" padding="10px 0">${layout.facts.map(
                ([label, value]) =>
                  markup`<tr><td style="padding:4px 12px 4px 0;color:${BRAND.muted};white-space:nowrap;vertical-align:top">${label}</td><td style="padding:4px 0">${value}</td></tr>`,
              )}</mj-table>`
        }
        ${(layout.notes ?? []).map(text)}
        ${
          layout.action === undefined
            ? ''
            : markup`<mj-button href="${layout.action.url}">${layout.action.label}</mj-button>
        <mj-text font-size="13px" color="${BRAND.muted}">Or open this address: <a href="${layout.action.url}" style="color:${BRAND.blue}">${layout.action.url}</a></mj-text>`
        }
      </mj-column>
    </mj-section>
    <mj-section padding="16px 28px">
      <mj-column>
        ${
          layout.toOperator
            ? markup`<mj-text font-size="12px" line-height="18px" color="${BRAND.muted}" padding="0">This mail was sent by the ${BRAND.name} at ${home} to its operator (OPERATOR_EMAIL).</mj-text>`
            : markup`<mj-text font-size="12px" line-height="18px" color="${BRAND.muted}" padding="0">This mail was sent by the ${BRAND.name} about your account. We never ask for your password or code by mail or phone. <a href="${home}/login" style="color:${BRAND.blue}">Sign in to the portal</a></mj-text>`
        }
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const result = await mjml2html(source.value, { validationLevel: 'strict' });
  return result.html;
}

/** A notice about the customer's account: what happened, why it matters, its facts and a link. */
export interface NoticeMail {
  subject: string;
  companyName: string;
  what: string;
  why: string;
  facts: [label: string, value: string][];
  action: { label: string; url: string };
  /** A closing line, such as how to stop such mail. */
  note?: string;
  publicUrl: string;
}

/** A notice mail as text and in the frame, saying the same in both. */
export async function renderNoticeMail(mail: NoticeMail) {
  const { subject, what, why, facts, action, note } = mail;
  return {
    subject,
    text: [
      what,
      why,
      '',
      ...facts.map(([label, value]) => `${label}: ${value}`),
      '',
      `${action.label}: ${action.url}`,
      ...(note ? ['', note] : []),
    ].join('\n'),
    html: await renderLayout({
      subject,
      preview: `${what} ${why}`,
      heading: subject,
      greeting: mail.companyName,
      paragraphs: [what, why],
      facts,
      action,
      ...(note ? { notes: [note] } : {}),
      publicUrl: mail.publicUrl,
    }),
  };
}
