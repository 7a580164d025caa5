import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { toast } from '@/lib/toast';
import {
  AuthenticatorCodeSchema,
  CODE_TTL_MS,
  RESEND_INTERVAL_MS,
  RecoveryCodeSchema,
  VERIFICATION_CODE_LENGTH,
  VerificationCodeSchema,
  type SecondFactor,
} from '@portal/contract';
import { paths } from '@/config/paths';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { PasswordCodeForm, codeBox, type PasswordCodeFormHandle } from '@/ui/password-code-form';
import { resendVerification } from '../api/resend-verification';
import { verify2fa, verifyRecoveryCode, type VerifyResult } from '../api/verify-2fa';
import { verifyPasskey } from '../api/verify-passkey';
import { maskEmail } from '../utils/mask-email';
import { CodeMailNotice } from './code-mail-notice';
import { PasskeyStep } from './passkey-step';
import { SignInNotice, type Notice } from './sign-in-notice';

const CODE_VALID_MINUTES = CODE_TTL_MS / 60_000;

const sixDigits = (code: string) => code.length === VERIFICATION_CODE_LENGTH;
const LARGE_CODE = 'text-center text-lg';
const SPACED_DIGITS = `${LARGE_CODE} tracking-[0.5em]`;

/** The box of a six-digit code, spaced for reading, focused as the dialog opens. */
const sixDigitBox = (label: string, keep: (typed: string) => string) =>
  codeBox({
    label,
    keep,
    isComplete: sixDigits,
    maxLength: VERIFICATION_CODE_LENGTH,
    inputMode: 'numeric',
    autoFocus: true,
    className: SPACED_DIGITS,
  });

/**
 * The codes that complete a sign-in: the e-mailed one; for an account with the authenticator
 * app, the app's, or, when the phone (or the passkey) is not at hand, one of the recovery codes.
 * Each with how it is typed, the contract's check, and where it goes.
 */
const codeSteps = {
  email: {
    schema: z.object({ code: VerificationCodeSchema }),
    box: sixDigitBox('Verification code', (typed) => typed.slice(0, VERIFICATION_CODE_LENGTH)),
    verify: verify2fa,
  },
  app: {
    schema: z.object({ code: AuthenticatorCodeSchema }),
    box: sixDigitBox('Code from your authenticator app', (typed) =>
      typed.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH),
    ),
    // the app's code goes where the e-mailed one does
    verify: verify2fa,
  },
  recovery: {
    schema: z.object({ code: RecoveryCodeSchema }),
    box: codeBox({
      label: 'Recovery code',
      keep: (typed) => typed.slice(0, 40),
      autoComplete: 'off',
      autoCapitalize: 'off',
      spellCheck: false,
      autoFocus: true,
      className: LARGE_CODE,
    }),
    verify: verifyRecoveryCode,
  },
} as const;

/**
 * Seconds until a new code may be asked for, counting down once a second. `restart` starts the
 * full interval again (the dialog opens: a code was just sent; after each resend), or the wait
 * the server asked for when it refused a resend.
 */
function useResendCountdown() {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(0);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  const waiting = seconds > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  const restart = (waitMs = RESEND_INTERVAL_MS) => {
    const start = Date.now();
    setNow(start);
    setUntil(start + waitMs);
  };
  return { seconds, restart };
}

const descriptions = {
  email:
    "We've sent a verification code to your email. Please enter it below to complete your login.",
  app: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes, to complete your login.',
  passkey: 'Use your passkey, or one of your recovery codes, to complete your login.',
} as const;

/**
 * The e-mailed-code step (spec §2 Two-factor modal), or, for an account that uses one, the
 * authenticator app's code or a passkey. Messages raised while the modal is open are shown
 * inside it, where a screen reader can still reach them.
 */
export function TwoFactorDialog({
  open,
  onOpenChange,
  secondFactor = 'email',
  returnFocus,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** What the login answer asked for: the e-mailed code, the app's, or a passkey. */
  secondFactor?: SecondFactor;
  /** The sign-in button: it is busy (so unfocused) while the dialog opens. */
  returnFocus(): HTMLElement | null;
}) {
  const navigate = useNavigate();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'verify' | 'resend' | null>(null);
  // an account with the app or a passkey may sign in with a recovery code instead
  const [recovering, setRecovering] = useState(false);
  const email = useSessionStore((s) => s.pendingEmail);
  const countdown = useResendCountdown();
  const codeForm = useRef<PasswordCodeFormHandle>(null);
  // each code's mail is watched afresh: the first, then one per resend
  const [codeRound, setCodeRound] = useState(0);
  const kind = secondFactor === 'email' ? 'email' : recovering ? 'recovery' : 'app';
  const step = codeSteps[kind];
  const passkeyStep = secondFactor === 'passkey' && !recovering;

  // opening means a code was just sent: the next one may be asked for after the interval
  const [shownOpen, setShownOpen] = useState(false);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) countdown.restart();
  }

  const close = (next: boolean) => {
    if (!next) {
      setNotice(null);
      setRecovering(false);
    }
    onOpenChange(next);
  };

  /** Checks the proof, and once it holds, opens the dashboard; a refusal stays in the modal. */
  const verifyWith = async (proof: () => Promise<VerifyResult>) => {
    if (busy) return;
    setBusy('verify');
    setNotice(null);
    // a new session starts with no data cached from an earlier one
    queryClient.clear();
    const result = await proof();
    setBusy(null);
    if (!result.success) {
      setNotice({ tone: 'error', text: result.message });
      return;
    }
    close(false);
    toast.success('Login successful!');
    navigate(paths.dashboard, { replace: true });
  };

  const onVerify = ({ code }: { code: string }) => verifyWith(() => step.verify(code));

  const onResend = async () => {
    setBusy('resend');
    setNotice(null);
    const result = await resendVerification();
    setBusy(null);
    setNotice({ tone: result.success ? 'success' : 'error', text: result.message });
    if (!result.success) {
      if (result.waitSeconds) countdown.restart(result.waitSeconds * 1000);
      return;
    }
    // the old code no longer works: a fresh, empty box for the new one
    codeForm.current?.clear('code');
    setCodeRound((round) => round + 1);
    countdown.restart();
  };

  const switchCode = () => {
    setRecovering(!recovering);
    setNotice(null);
  };

  const waiting = countdown.seconds > 0;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      returnFocus={returnFocus}
      title="Two-Factor Authentication"
      description={descriptions[secondFactor]}
    >
      {passkeyStep ? (
        <PasskeyStep
          busy={busy !== null}
          notice={notice}
          onUse={() => void verifyWith(verifyPasskey)}
          onRecover={switchCode}
        />
      ) : (
        <PasswordCodeForm
          // the other kind of code: a fresh form, its empty box focused
          key={kind}
          ref={codeForm}
          schema={step.schema}
          boxes={[step.box]}
          intro={
            kind === 'email' &&
            email && (
              <p className="text-sm text-slate-700">
                Code sent to <span className="font-medium text-slate-900">{maskEmail(email)}</span>.
                It is valid for {CODE_VALID_MINUTES} minutes.
              </p>
            )
          }
          onSubmit={onVerify}
          actions={(ready) => (
            <>
              {/* one live region: how the code's mail goes, then what the last action did */}
              <div aria-live="polite" aria-atomic="true" className="space-y-2">
                {kind === 'email' && <CodeMailNotice round={codeRound} />}
                <SignInNotice notice={notice} />
              </div>
              <div className="flex flex-col gap-2 sm:flex-row-reverse">
                {/* flex-1 only side by side: in a column a zero basis would squash them to their text */}
                <Button type="submit" className="sm:flex-1" disabled={!ready || busy !== null}>
                  Verify &amp; Login
                </Button>
                {kind === 'email' ? (
                  <Button
                    variant="secondary"
                    className="sm:flex-1"
                    onClick={onResend}
                    disabled={busy !== null || waiting}
                    aria-describedby={waiting ? 'resend-wait' : undefined}
                  >
                    Resend Code
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    className="sm:flex-1"
                    onClick={switchCode}
                    disabled={busy !== null}
                  >
                    {kind === 'app'
                      ? 'Use a recovery code'
                      : secondFactor === 'passkey'
                        ? 'Use your passkey instead'
                        : 'Use the app’s code'}
                  </Button>
                )}
              </div>
              {kind === 'email' && waiting && (
                <p id="resend-wait" className="text-center text-sm text-slate-700">
                  You can ask for a new code in{' '}
                  <span className="font-medium tabular-nums">{formatWait(countdown.seconds)}</span>.
                </p>
              )}
            </>
          )}
        />
      )}
    </Dialog>
  );
}

/** 0:45, 1:00: minutes and seconds, as a countdown is read. */
function formatWait(seconds: number) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
