/**
 * An e-mail address as the sign-in dialog shows it: the first letter of the mailbox, then
 * stars, then the whole domain (d***@acme.example), so that the customer recognises it while
 * someone looking over a shoulder learns little.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
