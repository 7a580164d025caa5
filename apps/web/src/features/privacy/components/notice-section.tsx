import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { QueryStates } from '@/ui/query-states';
import { useMarkNoticeRead, useNoticeStatus, useWithdrawOptional } from '../api/privacy';
import { PrivacyNotice } from './privacy-notice';

/**
 * The privacy notice, whether it was read, and withdrawing every optional consent in one step
 * (DPDP Act 2023, s. 6(4): as easy as giving it).
 */
export function NoticeSection() {
  const status = useNoticeStatus();
  const read = useMarkNoticeRead();
  const withdraw = useWithdrawOptional();
  const onWithdraw = () =>
    withdraw.mutate(undefined, {
      onSuccess: (answer) => toast.success(answer.message),
      onError: (failure) =>
        toast.error(errorMessage(failure, 'Could not withdraw your consent. Please try again.')),
    });
  return (
    <Card aria-labelledby="notice-heading">
      <CardHeader title={<span id="notice-heading">Privacy notice</span>} />
      <CardBody className="space-y-4">
        <PrivacyNotice level={3} />
        <QueryStates query={status} errorText="Failed to load the privacy notice">
          {(data) =>
            data.readAt ? (
              <p className="text-sm text-slate-600">
                You read this notice on {formatDate(data.readAt)}.
              </p>
            ) : (
              <Button
                variant="secondary"
                className="max-md:h-11 max-md:w-full"
                onClick={() =>
                  read.mutate(data.version, {
                    onError: (failure) =>
                      toast.error(errorMessage(failure, 'Could not save that you read it')),
                  })
                }
                busy={read.isPending}
              >
                I have read it
              </Button>
            )
          }
        </QueryStates>
        <div className="space-y-2 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-700">
            Withdraw your consent to everything optional: we stop sending reminder and
            consent-change e-mails. Nothing else changes, and you can turn each back on under E-mail
            notifications.
          </p>
          <Button
            variant="secondary"
            className="max-md:h-11 max-md:w-full"
            onClick={onWithdraw}
            busy={withdraw.isPending}
          >
            Withdraw optional consent
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}
