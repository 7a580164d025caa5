import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ReadMail {
  to: string;
  subject: string;
  text: string;
}

/** Reads the .eml files of an outbox folder, oldest first, as a person would open them. */
export async function readOutbox(dir: string): Promise<ReadMail[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => parseEml(await readFile(path.join(dir, file), 'utf8'))),
  );
}

export async function latestMail(dir: string): Promise<ReadMail> {
  const mails = await readOutbox(dir);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail in ${dir}`);
  return last;
}

function parseEml(raw: string): ReadMail {
  const [head = '', ...bodyParts] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) =>
    head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
  let body = bodyParts.join('\n\n');
  if (/quoted-printable/i.test(head)) {
    body = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { to: header('To'), subject: header('Subject'), text: body };
}

/** The 6-digit code of a verification mail. */
export function codeFrom(mail: ReadMail): string {
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in mail "${mail.subject}"`);
  return code;
}
