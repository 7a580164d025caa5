import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML; mail clients show it, with `text` as its plain alternative. */
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** A Message-ID fixed before the first try, so a retried message is recognisably the same. */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Sends through the SMTP server named by `smtp://user:pass@host:port`. */
export function createSmtpMailer(url: string, from: string): Mailer {
  // each wait well under the mail queue's 120 s limit for a try, so that a slow server makes a
  // failed try, never a try given up on while its message is still being sent
  const transport: Transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

let outboxSequence = 0;

/**
 * Writes each message as an .eml file. File names sort by time of sending, so the newest
 * message is the last file in the folder.
 */
export function createOutboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const sequence = String(outboxSequence++ % 10_000).padStart(4, '0');
      const file = path.join(dir, `${stamp}-${sequence}.eml`);
      // written under another name first, so a reader never sees half a message
      await writeFile(`${file}.part`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.part`, file);
    },
    close: () => transport.close(),
  };
}

export function createMailer(config: { MAIL_URL?: string; MAIL_FROM: string; DATA_DIR: string }) {
  return config.MAIL_URL
    ? createSmtpMailer(config.MAIL_URL, config.MAIL_FROM)
    : createOutboxMailer(path.join(config.DATA_DIR, 'outbox'), config.MAIL_FROM);
}
