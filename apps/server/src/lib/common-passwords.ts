// New passwords are refused when they are among the passwords most often found in breaches
// (OWASP ASVS 6.2.12): the 49,233 of zxcvbn-ts's `passwords-common` list, kept lower-case.
import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | null = null;

/** Whether `password` is on the list, whatever the case of its letters. */
export function isCommonPassword(password: string): boolean {
  // built at the first check (some 25 ms), not at every start
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}
