import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';

/** The PKCS#12 file that signs invoices and credit notes, opened: its bytes and its holder. */
export interface SigningCertificate {
  /** The key and certificates again as PKCS#12, under a one-time password (see reencoded). */
  p12: Buffer;
  password: string;
  /** The certificate subject's common name, shown on the page as the signer. */
  commonName: string;
}

/** Why the configured certificate cannot sign; its message never holds the password. */
export class SigningCertificateError extends Error {}

const FILE = 'INVOICE_SIGNING_P12_FILE';
const PASSWORD = 'INVOICE_SIGNING_P12_PASSWORD';
const CERT_BAG = forge.pki.oids.certBag!;

/** The first bag of one type in a PKCS#12 file. */
function firstBag(p12: forge.pkcs12.Pkcs12Pfx, bagType: string | undefined) {
  return bagType === undefined ? undefined : p12.getBags({ bagType })[bagType]?.[0];
}

/**
 * Opens the certificate at `file` with `password`: read, decrypted, and holding a private key
 * and a certificate with a common name. Checked once at start, so that a wrong file or password
 * stops the start instead of the first payment.
 */
export function openSigningCertificate(file: string, password: string): SigningCertificate {
  let p12: Buffer;
  try {
    p12 = readFileSync(file);
  } catch (error) {
    // Stryker disable next-line StringLiteral: every error readFileSync throws carries a code (the system's, as ENOENT or EACCES, or Node's, as ERR_INVALID_ARG_VALUE): the fallback never shows
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SigningCertificateError(`${FILE} ${file} cannot be read (${code})`);
  }
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
  } catch {
    throw new SigningCertificateError(`${FILE} ${file} is not a PKCS#12 (.p12) file`);
  }
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    pfx = forge.pkcs12.pkcs12FromAsn1(asn1, password);
  } catch (error) {
    // the integrity check fails first on a wrong password; anything else is a malformed file
    const wrong = /password|decrypt/i.test((error as Error).message);
    throw new SigningCertificateError(
      wrong
        ? `${PASSWORD} does not open ${FILE} ${file}`
        : `${FILE} ${file} is not a PKCS#12 (.p12) file`,
    );
  }
  // the signer reads the key from an encrypted (shrouded) bag only, as exports usually make it
  const key = firstBag(pfx, forge.pki.oids.pkcs8ShroudedKeyBag);
  const commonName = firstBag(pfx, CERT_BAG)?.cert?.subject.getField('CN')?.value;
  if (!key?.key || typeof commonName !== 'string' || commonName === '') {
    throw new SigningCertificateError(
      `${FILE} ${file} must hold an encrypted private key and a certificate whose subject has a common name (CN)`,
    );
  }
  const certBags = pfx.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? [];
  const certificates = certBags.flatMap((bag) => bag.cert ?? []);
  // PKCS#12 keys are RSA: forge reads no other kind into a key bag
  return { ...reencoded(key.key as forge.pki.rsa.PrivateKey, certificates), commonName };
}

/**
 * The key and certificates as a PKCS#12 that opens in about a millisecond: the signer opens its
 * file at every signature, and the operator's file (PBKDF2 with thousands of iterations, in
 * JavaScript) took some 27 ms each time, while the settlement held the year's counter row. It
 * never leaves memory, which already holds the operator's password, so its one iteration and
 * its one-time password weaken nothing.
 */
function reencoded(key: forge.pki.rsa.PrivateKey, certificates: forge.pki.Certificate[]) {
  const password = randomBytes(24).toString('base64');
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certificates, password, {
    algorithm: 'aes256',
    count: 1,
    // Stryker disable next-line BooleanLiteral: a MAC of one iteration costs as little as none, and the signer checks it with the same one-time password: the copy opens and signs alike
    useMac: false,
  });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), password };
}

/**
 * What is wrong with the signing settings, in one line; null when they are unset or sound.
 * The two are set together: a certificate without its password is a mistake, not "no signing".
 */
export function signingSettingsProblem(
  file: string | undefined,
  password: string | undefined,
): string | null {
  if (!file && !password) return null;
  if (!file) return `${PASSWORD} is set without ${FILE}`;
  if (password === undefined) return `${PASSWORD} is required with ${FILE}`;
  try {
    openSigningCertificate(file, password);
    return null;
  } catch (error) {
    if (error instanceof SigningCertificateError) return error.message;
    throw error;
  }
}
