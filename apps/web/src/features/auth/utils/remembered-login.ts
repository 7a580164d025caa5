import { z } from 'zod';
import { REMEMBERED_LOGIN_KEY } from '@portal/contract';

/** The non-password login fields kept for the next visit (spec §3 Remembered login). */
const RememberedLoginSchema = z.object({
  email: z.string(),
  mobile: z.string(),
  gstNo: z.string(),
  tally_serialno: z.string(),
  rememberMe: z.literal(true),
});
export type RememberedLogin = z.infer<typeof RememberedLoginSchema>;

/** The saved entry, or null; a corrupt entry is removed with only a console error (spec §4). */
export function readRememberedLogin(): RememberedLogin | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(REMEMBERED_LOGIN_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    return RememberedLoginSchema.parse(JSON.parse(raw));
  } catch (error) {
    console.error('Discarding the remembered login: it could not be read.', error);
    localStorage.removeItem(REMEMBERED_LOGIN_KEY);
    return null;
  }
}

export function saveRememberedLogin({
  email,
  mobile,
  gstNo,
  tally_serialno,
}: Omit<RememberedLogin, 'rememberMe'>) {
  const entry: RememberedLogin = { email, mobile, gstNo, tally_serialno, rememberMe: true };
  localStorage.setItem(REMEMBERED_LOGIN_KEY, JSON.stringify(entry));
}

export function forgetRememberedLogin() {
  localStorage.removeItem(REMEMBERED_LOGIN_KEY);
}
