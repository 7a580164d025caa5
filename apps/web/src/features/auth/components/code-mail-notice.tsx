import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/http';
import { codeMailStatus } from '../api/code-mail-status';

/** The first look waits for the mail worker's first try, which usually sends the code at once. */
const FIRST_LOOK_MS = 2_000;
/** Then every 5 s for a minute, and every 15 s after: a failing mail is tried again for hours. */
const SOON_MS = 5_000;
const SOON_FOR_MS = 60_000;
const LATER_MS = 15_000;

const CODE_MAIL_FAILING =
  'We could not send your code. Our email service is having trouble; we keep trying, so the code may still arrive. If it has not come in a few minutes, try again with Resend Code, or contact support.';
const CODE_MAIL_SENT_AFTER_ALL = 'Your code has been sent now. Please check your email.';

type Notice = 'failing' | 'sent after all';

/**
 * What to tell of the newest code's mail, asked of the server until it is sent, or until the
 * server refuses (the sign-in is over, or asked too often). `round` names the code: a new one
 * (after a resend) starts again. Null while there is nothing to tell: the page changes only
 * when the mail is seen failing, and once more should it be sent after all.
 */
function useCodeMailNotice(round: number): Notice | null {
  const [shown, setShown] = useState<{ round: number; notice: Notice } | null>(null);
  useEffect(() => {
    let stopped = false;
    let failed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const lookLater = () => {
      timer = setTimeout(look, Date.now() - started < SOON_FOR_MS ? SOON_MS : LATER_MS);
    };
    async function look() {
      let status;
      try {
        status = await codeMailStatus();
      } catch (error) {
        // a refusal will not change; a failed call (the network, the server) may
        if (!stopped && !(error instanceof ApiError && error.status < 500)) lookLater();
        return;
      }
      if (stopped || status === null) return;
      if (status === 'sent') {
        if (failed) setShown({ round, notice: 'sent after all' });
        return;
      }
      if (status === 'failing' && !failed) {
        failed = true;
        setShown({ round, notice: 'failing' });
      }
      lookLater();
    }
    timer = setTimeout(look, FIRST_LOOK_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [round]);
  return shown?.round === round ? shown.notice : null;
}

/**
 * Tells a customer waiting for a code that its mail cannot be sent, and, should a later try
 * send it after all, that it has gone; nothing while all is well. Placed in a live region that
 * exists from the start, so that both are read out.
 */
export function CodeMailNotice({ round }: { round: number }) {
  const notice = useCodeMailNotice(round);
  if (notice === 'failing') {
    return (
      <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{CODE_MAIL_FAILING}</p>
    );
  }
  if (notice === 'sent after all') {
    return (
      <p className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
        {CODE_MAIL_SENT_AFTER_ALL}
      </p>
    );
  }
  return null;
}
