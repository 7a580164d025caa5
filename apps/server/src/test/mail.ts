import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import type { AppDeps } from '../deps';
import { mailTemplates } from '../mail-templates';
import { startDocumentDrawing } from '../modules/invoices/draw';
import { startMailDelivery } from '../modules/mail/delivery';
import { drainQueue } from './queue';

export interface ReadMail {
  to: string;
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part, or '' when the mail has none. */
  html: string;
  messageId: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

const addresses = (to: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(to) ? to : to ? [to] : []).map((a) => a.text).join(', ');

/** Parses one raw message as a mail client does: headers decoded, parts separated. */
export async function parseMail(raw: Buffer | string): Promise<ReadMail> {
  const mail = await simpleParser(raw);
  return {
    to: addresses(mail.to),
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: mail.html || '',
    messageId: mail.messageId ?? '',
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? '',
      contentType: a.contentType,
      content: a.content,
    })),
  };
}

/** Reads the .eml files of an outbox folder, oldest first, as a person would open them. */
export async function readOutbox(dir: string): Promise<ReadMail[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map(async (file) => parseMail(await readFile(path.join(dir, file)))));
}

export async function latestMail(dir: string): Promise<ReadMail> {
  const mails = await readOutbox(dir);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail in ${dir}`);
  return last;
}

/** The 6-digit code of a verification mail. */
export function codeFrom(mail: Pick<ReadMail, 'subject' | 'text'>): string {
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in mail "${mail.subject}"`);
  return code;
}

/** The addresses of every link in a mail's HTML part, as a browser would follow them. */
export function linksOf(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

/**
 * The test app's mail worker and drawing of issued documents, started at the first use of
 * either: `drawDocuments` waits until every document issued so far is drawn, `deliverMail`
 * until every mail queued so far (a receipt's waits for its PDF) is handed to the mailer.
 */
export function backgroundWork(deps: AppDeps) {
  let started: Promise<unknown> | null = null;
  const drawDocuments = async (options?: { timeoutMs?: number }) => {
    started ??= Promise.all([startMailDelivery(deps, mailTemplates), startDocumentDrawing(deps)]);
    await started;
    await drainQueue({ deps }, 'document-draw', options);
  };
  return {
    drawDocuments,
    async deliverMail() {
      await drawDocuments();
      await drainQueue({ deps }, 'mail');
    },
  };
}
