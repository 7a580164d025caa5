import type { TestApp } from '../../test/app';
import { codeFrom } from '../../test/mail';

type Headers = Record<string, string>;

export const post = (t: TestApp, url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    ...(payload ? { payload: payload as object } : {}),
  });

/** The code in the newest mail to `to`. */
export async function codeMailedTo(t: TestApp, to: string) {
  const mail = (await t.outbox()).filter((m) => m.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return codeFrom(mail);
}
