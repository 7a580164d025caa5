import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordPath } from '@portal/contract';
import type { TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { codeFrom, linksOf, type ReadMail } from '../../test/mail';
import { drainQueue, jobsOf } from '../../test/queue';
import { appMailingThrough, createSmtpProcess, type SmtpProcess } from '../../test/smtp';
import { bearer, freshIp, login, loginBody, requestResetLink, verify } from '../../test/auth';

// The mail server is a real SMTP process that the test kills and starts again; the portal
// delivers through its queue worker, as in production.
let smtp: SmtpProcess;
let t: TestApp;
beforeAll(async () => {
  smtp = await createSmtpProcess();
  t = await appMailingThrough(smtp);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Waits until the worker has tried every queued mail at least once and failed. */
async function triedAndWaiting(count: number) {
  for (let i = 0; i < 600; i += 1) {
    const waiting = (await jobsOf(t, 'mail')).filter((job) => job.state === 'retry');
    if (waiting.length === count) return;
    t.deps.queue.wake('mail');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected ${count} mails waiting for a retry`);
}

const subjects = (mails: ReadMail[]) => mails.map((m) => m.subject);

describe('mail while the mail server is down', () => {
  it('lets the customer sign in at once, and delivers every code, link and notice once it is back', async () => {
    const customer = await createCustomer(t);
    const ip = freshIp();

    // down: sign-in and a reset request answer as usual
    const started = performance.now();
    const first = await login(t, loginBody(customer), ip);
    expect(first.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
    const forgot = await requestResetLink(t, customer.email);
    expect(forgot.statusCode).toBe(200);
    await triedAndWaiting(2);
    expect(await smtp.received()).toEqual([]);

    // back: both arrive, once
    await smtp.start();
    await drainQueue(t, 'mail', { retriesNow: true });
    const arrived = await smtp.received();
    expect(subjects(arrived)).toEqual(['Your verification code', 'Reset your password']);
    const [codeMail, resetMail] = arrived;
    expect(codeMail!.to).toBe(customer.email);
    const resetLinks = linksOf(resetMail!.html).filter((l) => l.includes('token='));
    expect(resetLinks[0]).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]{43}$/);
    expect(resetMail!.text).toContain(resetLinks[0]);
    const signedIn = await verify(t, first.json().tempToken, codeFrom(codeMail!), ip);
    expect(signedIn.statusCode).toBe(200);

    // down again, killed mid-life: a password change still answers, and its notice waits
    await smtp.stop();
    const changed = await t.app.inject({
      method: 'PUT',
      url: changePasswordPath(customer.id),
      headers: bearer(signedIn.json().token),
      payload: { currentPassword: customer.password, password: 'Fresh@2026' },
    });
    expect(changed.statusCode).toBe(200);
    await triedAndWaiting(1);

    await smtp.start();
    await drainQueue(t, 'mail', { retriesNow: true });
    // nothing more is on its way: what arrived is all there will be
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await drainQueue(t, 'mail', { retriesNow: true });
    const all = await smtp.received();
    expect(subjects(all)).toEqual([
      'Your verification code',
      'Reset your password',
      'Your password was changed',
    ]);
    expect(new Set(all.map((m) => m.messageId)).size).toBe(3);
    expect(all.every((m) => m.to === customer.email && m.html.includes('</html>'))).toBe(true);
    expect(all[2]!.text).toContain('The password of your portal account was just changed.');
    expect(await jobsOf(t, 'mail-dead-letter')).toEqual([]);
  });
});
