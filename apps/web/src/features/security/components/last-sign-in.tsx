import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { useLastSignIn } from '../api/get-last-sign-in';

/**
 * "Last sign-in: 22/11/2026, 10:14, Chrome on Windows": the successful sign-in before this
 * one, so that a customer notices one that was not theirs. Says nothing while loading or when
 * it cannot be read: the dashboard carries on without it.
 */
// the cards below must not move when it arrives: on a phone the line wraps, to three lines
// at 360 px when the browser has no name ("An unknown browser on an unknown system"); one line
// from the sm width
const LINE_BOX = 'min-h-15 sm:min-h-5';

export function LastSignIn() {
  const { data } = useLastSignIn();
  if (!data) return <p className={LINE_BOX} aria-hidden="true" />;
  const last = data.data;
  return (
    <p className={`${LINE_BOX} text-sm text-slate-600`}>
      Last sign-in: {last ? `${formatDateTime(last.at)}, ${last.browser}` : 'none before this one'}.{' '}
      <Link
        to={paths.security}
        className="rounded font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        Review security
      </Link>
    </p>
  );
}
