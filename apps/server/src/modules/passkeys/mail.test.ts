import { describe, expect, it } from 'vitest';
import { passkeyMail } from './mail';

const ctx = { publicUrl: 'https://portal.example.in/customers/' };
const AT = '2027-01-05T04:44:00.000Z'; // 10:14 in India

describe('the notice of a passkey added or removed', () => {
  it('names the passkey, when, and the way back, in both parts', async () => {
    const added = await passkeyMail(
      { added: true, name: 'Work laptop', at: AT, companyName: 'Acme Traders' },
      ctx,
    );
    expect(added.subject).toBe('Passkey added');
    expect(added.text).toBe(
      [
        'A passkey named "Work laptop" was added to your portal account. It can now finish a sign-in in place of a code.',
        '',
        'When: 05/01/2027, 10:14 (India time)',
        '',
        'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen, then review your passkeys.',
      ].join('\n'),
    );
    expect(added.html).toContain('https://portal.example.in/customers/security');
    const removed = await passkeyMail(
      { added: false, name: 'Phone', at: AT, companyName: 'Acme Traders' },
      ctx,
    );
    expect(removed.subject).toBe('Passkey removed');
    expect(removed.text).toContain('The passkey named "Phone" was removed');
  });

  it('shows a name with markup as text, never as markup', async () => {
    const mail = await passkeyMail(
      { added: true, name: '<a href="https://evil.example">Key</a>', at: AT, companyName: 'Acme' },
      ctx,
    );
    expect(mail.html).not.toContain('<a href="https://evil.example"');
    expect(mail.html).toContain('&lt;a href=');
  });
});
