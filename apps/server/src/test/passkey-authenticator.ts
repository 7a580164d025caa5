import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array | string) =>
  isoBase64URL.fromBuffer(new Uint8Array(typeof data === 'string' ? Buffer.from(data) : data));

// authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** What a test bends in one ceremony: the page's origin, the relying party, the challenge. */
export interface Bent {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** The signature counter to report, in place of the next one (a cloned authenticator's). */
  counter?: number;
}

/**
 * An authenticator in software, as a security key or a phone does it: an ES256 key pair per
 * credential, attestation "none", a signature counter that moves on with each use. It speaks
 * the JSON the browser's `PublicKeyCredential.toJSON()` gives.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject };
  counter = 0;

  constructor(
    private readonly origin: string,
    private readonly rpId = new URL(origin).hostname,
  ) {
    this.keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  get id() {
    return b64url(this.credentialId);
  }

  /** The public key as COSE (RFC 9053): EC2, ES256, P-256. */
  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
        [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
      ]),
    );
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return JSON.stringify({ type, challenge, origin, crossOrigin: false });
  }

  /** `navigator.credentials.create` answered for `options`. */
  register(options: { challenge: string }, bent: Bent = {}): RegistrationResponseJSON {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authenticatorData(
      bent.rpId ?? this.rpId,
      UP | UV | AT,
      this.counter,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientData = this.clientData(
      'webauthn.create',
      bent.challenge ?? options.challenge,
      bent.origin ?? this.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get` answered for `options`: a signature over this sign-in. */
  signIn(options: { challenge: string }, bent: Bent = {}): AuthenticationResponseJSON {
    if (bent.counter === undefined) this.counter += 1;
    const authData = this.authenticatorData(
      bent.rpId ?? this.rpId,
      UP | UV,
      bent.counter ?? this.counter,
    );
    const clientData = this.clientData(
      'webauthn.get',
      bent.challenge ?? options.challenge,
      bent.origin ?? this.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
