import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { TOTP_PERIOD_SECONDS } from '@portal/contract';

export const ISSUER = 'Connected Banking Portal';

/**
 * Codes one step before and one after the current one are accepted (decision 036): RFC 6238 §5.2
 * allows a step of delay for typing and sending, and phones' clocks run a little fast or slow.
 */
export const STEP_TOLERANCE = 1;

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export const newSecret = () => generateSecret();

export const otpauthUri = (secret: string, email: string) =>
  generateURI({ issuer: ISSUER, label: email, secret, period: TOTP_PERIOD_SECONDS });

/** The URI as an SVG QR code in a data: URL, so that the screen needs no QR encoder. */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The time step of `code` when it is the secret's code within the tolerance at `now` and comes
 * after `afterStep` (so that a used code, or an older one, is refused); otherwise null.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: STEP_TOLERANCE * TOTP_PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // the result's type also covers HOTP, whose answer has no time step
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
