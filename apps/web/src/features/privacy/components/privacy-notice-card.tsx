import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { useMarkNoticeRead, useNoticeStatus } from '../api/privacy';
import { PrivacyNotice } from './privacy-notice';

/**
 * The privacy notice on the dashboard, from the first sign-in until the customer has read its
 * current version: not a step of sign-in, and once read, not shown again in any browser.
 */
export function PrivacyNoticeCard() {
  const status = useNoticeStatus();
  const read = useMarkNoticeRead();
  const data = status.data;
  if (!data || data.readAt) return null;
  return (
    <Card aria-labelledby="privacy-notice-card-heading">
      <CardHeader
        title={
          <span id="privacy-notice-card-heading" className="inline-flex items-center gap-2">
            <ShieldCheck className="h-5 w-5 text-blue-700" aria-hidden="true" />
            How we use your data
          </span>
        }
      />
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-700">
          We hold what we need to sign you in, sell you a plan, issue GST invoices and manage your
          banking consents. Reminder and consent-change e-mails are optional, and you can withdraw
          your consent to them at any time.
        </p>
        <details className="rounded-md border border-slate-200">
          <summary className="flex min-h-11 cursor-pointer items-center px-3 text-sm font-medium text-blue-700">
            Read the full notice
          </summary>
          <div className="border-t border-slate-100 px-3 py-3">
            <PrivacyNotice level={3} />
          </div>
        </details>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button
            className="max-sm:h-11 max-sm:w-full"
            onClick={() => read.mutate(data.version)}
            busy={read.isPending}
          >
            I have read it
          </Button>
          <Link
            to={paths.privacy}
            className="inline-flex min-h-11 items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 max-sm:w-full md:min-h-9"
          >
            Privacy choices
          </Link>
        </div>
        {read.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {errorMessage(read.error, 'Could not save that you read it. Please try again.')}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
