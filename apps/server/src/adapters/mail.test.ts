import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { codeFrom, parseMail, readOutbox } from '../test/mail';
import { freshIp, login, loginBody, verify } from '../test/auth';
import { mailTemplates } from '../mail-templates';
import { startMailDelivery } from '../modules/mail/delivery';
import { drainQueue } from '../test/queue';
import { createMailer, createOutboxMailer, createSmtpMailer } from './mail';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP listener on the loopback address that keeps what it receives. */
let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('SMTP mailer', () => {
  it('delivers a message through an SMTP server', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Portal <no-reply@portal.test>');
    try {
      await mailer.send({ to: 'someone@example.test', subject: 'Hello there', text: 'Body text' });
    } finally {
      mailer.close();
    }
    const last = received.at(-1)!;
    expect(last.from).toBe('no-reply@portal.test');
    expect(last.to).toEqual(['someone@example.test']);
    expect(last.raw).toMatch(/^Subject: Hello there$/m);
    expect(last.raw).toContain('Body text');
  });

  it('is what MAIL_URL selects', async () => {
    const mailer = createMailer({
      MAIL_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Portal <no-reply@portal.test>',
      DATA_DIR: path.join(tmpdir(), 'unused'),
    });
    const before = received.length;
    try {
      await mailer.send({ to: 'b@example.test', subject: 'Via config', text: 'x' });
    } finally {
      mailer.close();
    }
    expect(received).toHaveLength(before + 1);
  });

  it('carries the sign-in code of a real sign-in', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Portal <no-reply@portal.test>');
    const t = await createTestApp({ deps: { mailer } });
    try {
      const customer = await createCustomer(t);
      const ip = freshIp();
      const res = await login(t, loginBody(customer), ip);
      expect(res.statusCode).toBe(200);
      await startMailDelivery(t.deps, mailTemplates);
      await drainQueue(t, 'mail');
      const mail = received.at(-1)!;
      expect(mail.to).toEqual([customer.email]);
      const code = codeFrom(await parseMail(mail.raw));
      const done = await verify(t, res.json().tempToken, code, ip);
      expect(done.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('fails loudly when the server cannot be reached', async () => {
    const mailer = createSmtpMailer('smtp://127.0.0.1:1', 'Portal <no-reply@portal.test>');
    try {
      await expect(
        mailer.send({ to: 'c@example.test', subject: 'Lost', text: 'x' }),
      ).rejects.toThrow();
    } finally {
      mailer.close();
    }
  });
});

describe('outbox mailer', () => {
  it('writes each message as an .eml file, newest last', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outbox-test-'));
    const mailer = createOutboxMailer(dir, 'Portal <no-reply@portal.test>');
    try {
      await mailer.send({ to: 'a@example.test', subject: 'First', text: 'one' });
      await mailer.send({ to: 'b@example.test', subject: 'Second', text: 'Your code is 123456' });
      const mails = await readOutbox(dir);
      expect(mails.map((m) => m.subject)).toEqual(['First', 'Second']);
      expect(mails[1]!.to).toContain('b@example.test');
      expect(codeFrom(mails[1]!)).toBe('123456');
    } finally {
      mailer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
