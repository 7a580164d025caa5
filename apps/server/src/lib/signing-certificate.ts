import { constants, createPrivateKey, privateEncrypt, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';

/** The PKCS#12 file that signs invoices and credit notes, opened once: its key and certificates. */
export interface SigningCertificate {
  /** Every certificate of the file, carried in each signature for its chain. */
  certificates: forge.pki.Certificate[];
  /** The certificate of the private key. */
  certificate: forge.pki.Certificate;
  /** The private key as forge's PKCS#7 signs with it, the arithmetic done by Node (rsaKey). */
  key: forge.pki.rsa.PrivateKey;
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
  const unfit = () =>
    new SigningCertificateError(
      `${FILE} ${file} must hold an encrypted private key and a certificate whose subject has a common name (CN)`,
    );
  // the signer reads the key from an encrypted (shrouded) bag only, as exports usually make it;
  // PKCS#12 keys are RSA: forge reads no other kind into a key bag
  const rsa = firstBag(pfx, forge.pki.oids.pkcs8ShroudedKeyBag)?.key as
    forge.pki.rsa.PrivateKey | undefined;
  if (!rsa) throw unfit();
  const certBags = pfx.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? [];
  const certificates = certBags.flatMap((bag) => bag.cert ?? []);
  const certificate = certificates.find((cert) => holdsKey(cert, rsa));
  const commonName = certificate?.subject.getField('CN')?.value;
  if (!certificate || typeof commonName !== 'string' || commonName === '') throw unfit();
  return { certificates, certificate, key: rsaKey(rsa), commonName };
}

function holdsKey(certificate: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey) {
  const { n, e } = certificate.publicKey as forge.pki.rsa.PublicKey;
  return n.equals(key.n) && e.equals(key.e);
}

// DigestInfo (RFC 8017, 9.2) of a SHA-256 digest, before the digest's 32 bytes
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * The key as forge's PKCS#7 takes it, whose signing Node's OpenSSL does: forge's own RSA, in
 * JavaScript, took some 24 ms a document, half of a signed invoice's drawing (decision 086).
 * PKCS#1 v1.5 is deterministic, so the signature is the very one forge would have made.
 */
function rsaKey(key: forge.pki.rsa.PrivateKey): forge.pki.rsa.PrivateKey {
  const node: KeyObject = createPrivateKey(forge.pki.privateKeyToPem(key));
  // the documents' signer asks for SHA-256 only
  const sign = (md: forge.md.MessageDigest) => {
    const digest = Buffer.from(md.digest().getBytes(), 'binary');
    const info = Buffer.concat([SHA256_DIGEST_INFO, digest]);
    return privateEncrypt({ key: node, padding: constants.RSA_PKCS1_PADDING }, info).toString(
      'binary',
    );
  };
  return { ...key, sign };
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
