import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import {
  CODE_TTL_MS,
  RESEND_INTERVAL_MS,
  VERIFICATION_CODE_LENGTH,
  type SecondFactor,
} from '@portal/contract';
import { paths } from '@/config/paths';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { Field } from '@/ui/field';
import { resendVerification } from '../api/resend-verification';
import { verify2fa } from '../api/verify-2fa';
import { maskEmail } from '../utils/mask-email';
import { AppCodeForm } from './app-code-form';
import { CodeMailNotice } from './code-mail-notice';

type Notice = { tone: 'error' | 'success'; text: string } | null;

const CODE_VALID_MINUTES = CODE_TTL_MS / 60_000;

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

/**
 * The e-mailed-code step (spec §2 Two-factor modal), or the authenticator app's code for an
 * account that uses one. Messages raised while the modal is open are shown inside it, where a
 * screen reader can still reach them.
 */
export function TwoFactorDialog({
  open,
  onOpenChange,
  secondFactor = 'email',
  returnFocus,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** What the login answer asked for: the e-mailed code unless the account uses the app. */
  secondFactor?: SecondFactor;
  /** The sign-in button: it is busy (so unfocused) while the dialog opens. */
  returnFocus(): HTMLElement | null;
}) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'verify' | 'resend' | null>(null);
  const email = useSessionStore((s) => s.pendingEmail);
  const countdown = useResendCountdown();
  const codeInput = useRef<HTMLInputElement>(null);
  // each code's mail is watched afresh: the first, then one per resend
  const [codeRound, setCodeRound] = useState(0);

  // opening means a code was just sent: the next one may be asked for after the interval
  const [shownOpen, setShownOpen] = useState(false);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) countdown.restart();
  }

  const close = (next: boolean) => {
    if (!next) {
      setCode('');
      setNotice(null);
    }
    onOpenChange(next);
  };

  const onVerify = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== VERIFICATION_CODE_LENGTH || busy) return;
    setBusy('verify');
    setNotice(null);
    // a new session starts with no data cached from an earlier one
    queryClient.clear();
    const result = await verify2fa(code);
    setBusy(null);
    if (!result.success) {
      setNotice({ tone: 'error', text: result.message });
      return;
    }
    signedIn();
  };

  const signedIn = () => {
    close(false);
    toast.success('Login successful!');
    navigate(paths.dashboard, { replace: true });
  };

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
    setCode('');
    setCodeRound((round) => round + 1);
    countdown.restart();
    codeInput.current?.focus();
  };

  if (secondFactor === 'app') {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        returnFocus={returnFocus}
        title="Two-Factor Authentication"
        description="Enter the 6-digit code from your authenticator app, or one of your recovery codes, to complete your login."
      >
        <AppCodeForm verifyAppCode={verify2fa} onSignedIn={signedIn} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      returnFocus={returnFocus}
      title="Two-Factor Authentication"
      description="We've sent a verification code to your email. Please enter it below to complete your login."
    >
      <form onSubmit={onVerify} noValidate className="space-y-4">
        {email && (
          <p className="text-sm text-slate-700">
            Code sent to <span className="font-medium text-slate-900">{maskEmail(email)}</span>. It
            is valid for {CODE_VALID_MINUTES} minutes.
          </p>
        )}
        <Field
          ref={codeInput}
          label="Verification code"
          value={code}
          onChange={(e) => setCode(e.target.value.slice(0, VERIFICATION_CODE_LENGTH))}
          maxLength={VERIFICATION_CODE_LENGTH}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          className="text-center font-mono text-lg tracking-[0.5em]"
        />
        {/* one live region: how the code's mail goes, then what the last action did */}
        <div aria-live="polite" aria-atomic="true" className="space-y-2">
          <CodeMailNotice round={codeRound} />
          {notice && (
            <p
              className={
                notice.tone === 'error'
                  ? 'rounded-md bg-red-50 px-3 py-2 text-sm text-red-800'
                  : 'rounded-md bg-green-50 px-3 py-2 text-sm text-green-800'
              }
            >
              {notice.text}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row-reverse">
          {/* flex-1 only side by side: in a column a zero basis would squash them to their text */}
          <Button
            type="submit"
            className="sm:flex-1"
            disabled={code.length !== VERIFICATION_CODE_LENGTH || busy !== null}
          >
            Verify &amp; Login
          </Button>
          <Button
            variant="secondary"
            className="sm:flex-1"
            onClick={onResend}
            disabled={busy !== null || countdown.seconds > 0}
            aria-describedby={countdown.seconds > 0 ? 'resend-wait' : undefined}
          >
            Resend Code
          </Button>
        </div>
        {countdown.seconds > 0 && (
          <p id="resend-wait" className="text-center text-sm text-slate-700">
            You can ask for a new code in{' '}
            <span className="font-medium tabular-nums">{formatWait(countdown.seconds)}</span>.
          </p>
        )}
      </form>
    </Dialog>
  );
}

/** 0:45, 1:00: minutes and seconds, as a countdown is read. */
function formatWait(seconds: number) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
