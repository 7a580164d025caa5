import { useState, type FormEvent } from 'react';
import { VERIFICATION_CODE_LENGTH } from '@portal/contract';
import { queryClient } from '@/lib/query-client';
import { Button } from '@/ui/button';
import { Field } from '@/ui/field';
import { verifyRecoveryCode, type VerifyResult } from '../api/verify-2fa';

/**
 * The sign-in modal's step for an account with the authenticator app: the app's code, or, when
 * the phone is not at hand, one of the recovery codes.
 */
export function AppCodeForm({
  verifyAppCode,
  onSignedIn,
}: {
  /** The e-mailed code's call: the app's code goes to the same endpoint. */
  verifyAppCode(code: string): Promise<VerifyResult>;
  onSignedIn(): void;
}) {
  const [mode, setMode] = useState<'app' | 'recovery'>('app');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ready = mode === 'app' ? code.length === VERIFICATION_CODE_LENGTH : code.trim() !== '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    // a new session starts with no data cached from an earlier one
    queryClient.clear();
    const result = await (mode === 'app' ? verifyAppCode(code) : verifyRecoveryCode(code));
    setBusy(false);
    if (!result.success) {
      setError(result.message);
      return;
    }
    onSignedIn();
  };

  const switchMode = () => {
    setMode(mode === 'app' ? 'recovery' : 'app');
    setCode('');
    setError(null);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {mode === 'app' ? (
        <Field
          key="app"
          label="Code from your authenticator app"
          value={code}
          onChange={(e) =>
            setCode(e.target.value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH))
          }
          maxLength={VERIFICATION_CODE_LENGTH}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          className="text-center font-mono text-lg tracking-[0.5em]"
        />
      ) : (
        <Field
          key="recovery"
          label="Recovery code"
          value={code}
          onChange={(e) => setCode(e.target.value.slice(0, 40))}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          className="text-center font-mono text-lg"
        />
      )}
      <div aria-live="polite" aria-atomic="true">
        {error && <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row-reverse">
        <Button type="submit" className="sm:flex-1" disabled={!ready || busy}>
          Verify &amp; Login
        </Button>
        <Button variant="secondary" className="sm:flex-1" onClick={switchMode} disabled={busy}>
          {mode === 'app' ? 'Use a recovery code' : 'Use the app’s code'}
        </Button>
      </div>
    </form>
  );
}
