import { passkeyPaths } from '@portal/contract';
import type { TestApp } from './app';
import { authHeaders } from './customers';
import type { Customer } from '../modules/users/schema';
import { freshIp } from './auth';
import { SoftwareAuthenticator, type Bent } from './passkey-authenticator';
import { post } from './two-factor';

type TestCustomer = Customer & { password: string };
type Headers = Record<string, string>;

/** An authenticator on the portal's own origin, as a customer's device is. */
export const newAuthenticator = (t: TestApp) => new SoftwareAuthenticator(t.deps.config.PUBLIC_URL);

export async function registrationOptionsFor(t: TestApp, headers: Headers, password: string) {
  const res = await post(t, passkeyPaths.registrationOptions, headers, { password });
  if (res.statusCode !== 200) throw new Error(`options failed: ${res.body}`);
  return res.json().data as { challenge: string; excludeCredentials: { id: string }[] };
}

export const addPasskey = (t: TestApp, headers: Headers, credential: object, name = 'Laptop') =>
  post(t, passkeyPaths.add, headers, { name, credential });

/** Options, the authenticator's answer and the add: the customer has the passkey. */
export async function withPasskey(
  t: TestApp,
  customer: TestCustomer,
  authenticator = newAuthenticator(t),
  name = 'Laptop',
) {
  const headers = await authHeaders(t, customer.id);
  const options = await registrationOptionsFor(t, headers, customer.password);
  const res = await addPasskey(t, headers, authenticator.register(options), name);
  if (res.statusCode !== 200) throw new Error(`add failed: ${res.body}`);
  const data = res.json().data as { passkey: { id: string }; recoveryCodes: string[] | null };
  return { authenticator, headers, passkey: data.passkey, recoveryCodes: data.recoveryCodes };
}

export async function signInOptionsFor(t: TestApp, tempToken: string, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url: passkeyPaths.signInOptions,
    payload: { tempToken },
    remoteAddress: ip,
  });
}

export const verifyPasskey = (t: TestApp, tempToken: string, credential: object, ip = freshIp()) =>
  t.app.inject({
    method: 'POST',
    url: passkeyPaths.verify,
    payload: { tempToken, credential },
    remoteAddress: ip,
  });

/** The sign-in's options and the authenticator's signature over them, bent as asked. */
export async function signatureFor(
  t: TestApp,
  tempToken: string,
  authenticator: SoftwareAuthenticator,
  bent: Bent = {},
) {
  const res = await signInOptionsFor(t, tempToken);
  if (res.statusCode !== 200) throw new Error(`sign-in options failed: ${res.body}`);
  return authenticator.signIn(res.json().data as { challenge: string }, bent);
}
