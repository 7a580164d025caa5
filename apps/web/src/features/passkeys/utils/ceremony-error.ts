import { WebAuthnError } from '@simplewebauthn/browser';
import { passkeyMessages } from '@portal/contract';
import { ApiError, errorMessage } from '@/lib/http';

const said = {
  create: {
    // browsers give the same error for a closed prompt and a timed-out one, on purpose
    cancelled:
      'The passkey was not created: the prompt was closed or timed out. Try again when you are ready.',
    device: 'Your device could not create a passkey. Please try again, or use another device.',
    other: 'Could not add the passkey. Please try again.',
  },
  'sign-in': {
    cancelled:
      'The passkey was not used: the prompt was closed or timed out. Try again, or use a recovery code instead.',
    device:
      'Your device could not use the passkey. Please try again, or use a recovery code instead.',
    other: 'Verification failed',
  },
} as const;

/**
 * What to tell the customer when creating or using a passkey failed: the server's message for a
 * refused call, what the device's prompt ended with, or, for anything else (the network), a
 * plain failure.
 */
export function ceremonyErrorMessage(error: unknown, ceremony: 'create' | 'sign-in'): string {
  const words = said[ceremony];
  if (error instanceof ApiError) return errorMessage(error, words.other);
  if (!(error instanceof WebAuthnError || error instanceof DOMException)) return words.other;
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return words.cancelled;
  // this device keeps a passkey of the account already: the server lists them to be excluded
  if (ceremony === 'create' && error.name === 'InvalidStateError') {
    return passkeyMessages.alreadyAdded;
  }
  return words.device;
}
