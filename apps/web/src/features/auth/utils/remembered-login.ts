import { REMEMBERED_LOGIN_KEY } from '@portal/contract';

/** The non-password login fields kept for the next visit (spec §3 Remembered login). */
export interface RememberedLogin {
  email: string;
  mobile: string;
  gstNo: string;
  tally_serialno: string;
  rememberMe: true;
}

/*
 * Checked by hand rather than with zod: this runs on the sign-in screen's first load, and any
 * zod schema there would bring zod's shared core into it.
 */
function toRememberedLogin(value: unknown): RememberedLogin {
  const { email, mobile, gstNo, tally_serialno, rememberMe } = (
    typeof value === 'object' && value !== null ? value : {}
  ) as Partial<Record<keyof RememberedLogin, unknown>>;
  if (
    typeof email !== 'string' ||
    typeof mobile !== 'string' ||
    typeof gstNo !== 'string' ||
    typeof tally_serialno !== 'string' ||
    rememberMe !== true
  ) {
    throw new TypeError('a remembered login has four string fields and rememberMe: true');
  }
  // only the known fields: anything else stored beside them is not the form's
  return { email, mobile, gstNo, tally_serialno, rememberMe };
}

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
    return toRememberedLogin(JSON.parse(raw));
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
