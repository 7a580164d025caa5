import forge from 'node-forge';
import { SignPdf, Signer } from '@signpdf/signpdf';
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

const OIDS = forge.pki.oids;

/**
 * A detached PKCS#7 signature as Adobe's adbe.pkcs7.detached expects it, as the p12 signer of
 * @signpdf makes it, but with the certificate opened once instead of at every signature.
 */
class CertificateSigner extends Signer {
  constructor(private readonly certificate: SigningCertificate) {
    super();
  }

  override async sign(pdf: Buffer, signingTime: Date): Promise<Buffer> {
    const { certificates, certificate, key } = this.certificate;
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdf.toString('binary'));
    for (const cert of certificates) p7.addCertificate(cert);
    p7.addSigner({
      key,
      certificate,
      digestAlgorithm: OIDS.sha256!,
      // in this order, which the EU's signature validation checks
      authenticatedAttributes: [
        { type: OIDS.contentType!, value: OIDS.data },
        { type: OIDS.signingTime!, value: signingTime as unknown as string },
        { type: OIDS.messageDigest! },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}

/** Signs a finished PDF (PKCS#7 detached, as an incremental update that keeps its bytes). */
async function signPdf(pdf: Buffer, certificate: SigningCertificate, signedAt: Date) {
  // the finished PDF with room for its signature, which the signer fills
  const prepared = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: 'Issued by the supplier',
    contactInfo: '',
    name: certificate.commonName,
    location: 'India',
    signingTime: signedAt,
  });
  return new SignPdf().sign(prepared, new CertificateSigner(certificate), signedAt);
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
