// What a template makes of a mail's data, apart from any template: features' mails import it.

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

/** What every mail needs besides its own data. */
export interface MailContext {
  publicUrl: string;
}
