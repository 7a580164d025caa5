import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import type { SecuritySession } from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { formatDateTime } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { toast } from '@/lib/toast';
import { useEndOtherSessions } from '../api/end-other-sessions';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { DeviceLabel, addressOf } from './device-label';
import { SignOutDialog, type SignOutTarget } from './sign-out-dialog';

/**
 * The customer's live sessions: where each is, and signing out one or all the others. With
 * `offerSignOut`, after a change to how the account signs in, signing out the others is offered
 * first, until it is done or declined (`onOfferDone`).
 */
export function SessionsSection({
  offerSignOut = false,
  onOfferDone,
}: {
  offerSignOut?: boolean;
  onOfferDone?(): void;
}) {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [target, setTarget] = useState<SignOutTarget | null>(null);
  const rows = sessions.data?.data ?? [];
  const hasOthers = rows.some((session) => !session.current);

  const confirm = () => {
    if (!target) return;
    const done = { onSettled: () => setTarget(null) };
    if (target.kind === 'others') {
      endOthers.mutate(undefined, {
        ...done,
        onSuccess: (answer) => {
          toast.success(answer.message);
          onOfferDone?.();
        },
        onError: (error) => toast.error(errorMessage(error, 'Could not sign out the sessions')),
      });
    } else {
      endOne.mutate(target.id, {
        ...done,
        onSuccess: (answer) => toast.success(answer.message),
        onError: (error) => toast.error(errorMessage(error, 'Could not sign out the session')),
      });
    }
  };

  const columns: Column<SecuritySession>[] = [
    {
      header: 'Device',
      cell: (session) => (
        <span className="flex flex-wrap items-center gap-2">
          <DeviceLabel browser={session.browser} device={session.device} />
          {session.current && <Badge tone="green">This device</Badge>}
        </span>
      ),
    },
    { header: 'Address', cell: (session) => addressOf(session.ip) },
    { header: 'Signed in', cell: (session) => formatDateTime(session.createdAt) },
    { header: 'Last used', cell: (session) => formatDateTime(session.lastUsedAt) },
    {
      header: 'Actions',
      actions: true,
      cell: (session) =>
        session.current ? null : (
          <RowActions>
            <Button
              variant="secondary"
              size="sm"
              className="max-md:h-11"
              aria-label={`Sign out ${session.browser}`}
              onClick={() => setTarget({ kind: 'one', id: session._id, browser: session.browser })}
            >
              Sign out
            </Button>
          </RowActions>
        ),
    },
  ];

  return (
    <Card aria-labelledby="sessions-heading">
      <CardHeader
        title={<span id="sessions-heading">Signed-in sessions</span>}
        action={
          hasOthers && (
            <Button variant="secondary" onClick={() => setTarget({ kind: 'others' })}>
              Sign out all other sessions
            </Button>
          )
        }
      />
      <CardBody className="px-0 py-0">
        {/* mounted before the offer, so that screen readers announce it when it comes */}
        <div role="status">
          {offerSignOut && hasOthers && (
            <div className="flex flex-col gap-3 border-b border-slate-200 bg-amber-50 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-slate-800">
                Your two-step sign-in changed. The other sessions are still signed in: sign them
                out, and each must sign in again with the change.
              </p>
              <div className="flex shrink-0 flex-col-reverse gap-2 sm:flex-row">
                <Button variant="secondary" className="max-md:h-11" onClick={onOfferDone}>
                  Not now
                </Button>
                <Button className="max-md:h-11" onClick={() => setTarget({ kind: 'others' })}>
                  Sign out every other session
                </Button>
              </div>
            </div>
          )}
        </div>
        {sessions.isError ? (
          <div role="alert" className="flex flex-col items-center gap-3 px-5 py-8 text-center">
            <p className="text-sm text-red-700">
              {errorMessage(sessions.error, 'Failed to load your sessions')}
            </p>
            <Button variant="secondary" onClick={() => void sessions.refetch()}>
              Retry
            </Button>
          </div>
        ) : !sessions.isPending && rows.length === 0 ? (
          <EmptyState
            icon={<MonitorSmartphone className="h-10 w-10" />}
            title="No signed-in sessions"
            description="Sessions appear here when you sign in."
          />
        ) : (
          <DataTable
            caption="Signed-in sessions"
            columns={columns}
            rows={rows}
            rowKey={(session) => session._id}
            loading={sessions.isPending}
            busy={sessions.isFetching}
          />
        )}
        {!sessions.isPending && !sessions.isError && !hasOthers && rows.length > 0 && (
          <p className="px-5 py-3 text-sm text-slate-600">
            Your account is signed in on this device only.
          </p>
        )}
      </CardBody>
      <SignOutDialog
        target={target}
        onCancel={() => setTarget(null)}
        onConfirm={confirm}
        pending={endOne.isPending || endOthers.isPending}
      />
    </Card>
  );
}
