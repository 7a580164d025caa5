export type Notice = { tone: 'error' | 'success'; text: string } | null;

/** What the sign-in modal's last action did: a failure in red, a success in green. */
export function SignInNotice({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <p
      className={
        notice.tone === 'error'
          ? 'rounded-md bg-red-50 px-3 py-2 text-sm text-red-800'
          : 'rounded-md bg-green-50 px-3 py-2 text-sm text-green-800'
      }
    >
      {notice.text}
    </p>
  );
}
