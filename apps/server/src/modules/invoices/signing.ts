import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import type { Config } from '../../config';
import type { DocumentContent } from './document-content';
import { renderDocumentPdf, type DocumentRegistration } from './document-pdf';
import { openSigningCertificate, type SigningCertificate } from '../../lib/signing-certificate';

type SigningConfig = Pick<Config, 'INVOICE_SIGNING_P12_FILE' | 'INVOICE_SIGNING_P12_PASSWORD'>;

// opened once a configuration: loadConfig has already checked that it opens
const opened = new WeakMap<SigningConfig, SigningCertificate | null>();

/** The configured signing certificate, or null when documents go unsigned. */
export function signingCertificateOf(config: SigningConfig): SigningCertificate | null {
  if (!opened.has(config)) {
    const file = config.INVOICE_SIGNING_P12_FILE;
    opened.set(
      config,
      // Stryker disable next-line StringLiteral: loadConfig refuses INVOICE_SIGNING_P12_FILE without INVOICE_SIGNING_P12_PASSWORD, so a configured file always comes with its password (the empty one included): the fallback never runs
      file ? openSigningCertificate(file, config.INVOICE_SIGNING_P12_PASSWORD ?? '') : null,
    );
  }
  return opened.get(config)!;
}

/** Signs a finished PDF (PKCS#7 detached, as an incremental update that keeps its bytes). */
async function signPdf(pdf: Buffer, certificate: SigningCertificate, signedAt: Date) {
  const placeholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: 'Issued by the supplier',
    contactInfo: '',
    name: certificate.commonName,
    location: 'India',
    signingTime: signedAt,
  });
  const signer = new P12Signer(certificate.p12, { passphrase: certificate.password });
  return new SignPdf().sign(placeholder, signer, signedAt);
}

/**
 * The PDF of a tax invoice or credit note as issued: signed with the configured certificate,
 * saying so on the page, or unsigned and claiming no signature when none is configured; with
 * its e-invoice registration printed on it when it has one.
 */
export async function issuedDocumentPdf(
  config: SigningConfig,
  content: DocumentContent,
  signedAt: Date,
  registration?: DocumentRegistration,
): Promise<Buffer> {
  const certificate = signingCertificateOf(config);
  if (!certificate) return renderDocumentPdf(content, undefined, registration);
  const pdf = await renderDocumentPdf(
    content,
    { by: certificate.commonName, at: signedAt },
    registration,
  );
  return signPdf(pdf, certificate, signedAt);
}
