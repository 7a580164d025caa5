import { Eye, FileCheck2, FileX2, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { canReconnect, type Consent } from '@portal/contract';
import { cn } from '@/lib/cn';
import { formatDate, isPast } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { RowActions, type Column } from '@/ui/table';
import { summariseApis } from './consent-rules';
import { ConsentStatusBadge } from './consent-status-badge';
import { permissionName } from './permission-names';

/** An icon button beside the row on a desktop; on a phone a full-width button with its word. */
function RowAction({
  label,
  word,
  onClick,
  disabled,
  danger,
  children,
}: {
  label: string;
  word: string;
  onClick(): void;
  disabled?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      className={cn(
        'max-md:border max-md:border-slate-300 max-md:px-4',
        danger && 'text-red-700 hover:bg-red-50',
      )}
    >
      {children}
      <span className="md:hidden">{word}</span>
    </Button>
  );
}

/** What a row's buttons do; `refreshingId` is the consent whose status is being refreshed. */
export interface ConsentRowActions {
  refreshingId: string | null | undefined;
  onDetails(consent: Consent): void;
  onRefresh(consent: Consent): void;
  onDelete(consent: Consent): void;
  onReconnect(consent: Consent): void;
}

/** The Current tab's table: a row per consent, a card per consent on a phone. */
export function consentColumns({
  refreshingId,
  onDetails,
  onRefresh,
  onDelete,
  onReconnect,
}: ConsentRowActions): Column<Consent>[] {
  const now = new Date();
  return [
    {
      header: 'Consent Details',
      cell: (consent) => (
        <>
          <p className="max-w-[13rem] break-words font-mono text-xs font-medium text-slate-900">
            {consent.consentId}
          </p>
          <p className="mt-1 flex items-center gap-1 text-xs text-slate-600">
            {consent.documentUploaded === 'Y' ? (
              <>
                <FileCheck2 className="h-3.5 w-3.5 text-green-700" aria-hidden="true" />
                Document uploaded
              </>
            ) : (
              <>
                <FileX2 className="h-3.5 w-3.5" aria-hidden="true" />
                No document
              </>
            )}
          </p>
        </>
      ),
    },
    {
      header: 'Partner',
      cell: (consent) => (
        <>
          <p className="font-medium">{consent.partnerName}</p>
          <p className="mt-1 font-mono text-xs text-slate-600">{consent.partnerId}</p>
          <p className="mt-1 max-w-[16rem] text-xs text-slate-700">
            {consent.purpose ?? 'Purpose not stated'}
          </p>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (consent) => (
        <ConsentStatusBadge status={consent.consentStatus} pausedAt={consent.pausedAt} />
      ),
    },
    {
      header: 'APIs',
      cell: (consent) => {
        const apis = summariseApis(consent.apiList);
        return (
          <div className="flex max-w-[17rem] flex-wrap items-center gap-1">
            {apis.shown.map((code) => (
              <Badge key={code} tone="blue">
                {permissionName(code)}
              </Badge>
            ))}
            {apis.more > 0 && <span className="text-xs text-slate-600">+{apis.more} more</span>}
          </div>
        );
      },
    },
    { header: 'Created', cell: (consent) => formatDate(consent.createdAt) },
    {
      header: 'Expires',
      cell: (consent) =>
        consent.expirationDateTime ? (
          <>
            <span className="sr-only">
              {isPast(consent.expirationDateTime, now) ? 'Expired on ' : 'Expires on '}
            </span>
            {formatDate(consent.expirationDateTime)}
          </>
        ) : (
          'No expiry'
        ),
    },
    {
      header: 'Actions',
      actions: true,
      cell: (consent) => {
        const busy = refreshingId === consent.consentId;
        return (
          <RowActions>
            <RowAction
              label={`View details of consent ${consent.consentId}`}
              word="View details"
              onClick={() => onDetails(consent)}
            >
              <Eye className="h-4 w-4" aria-hidden="true" />
            </RowAction>
            <RowAction
              label={`Refresh status of consent ${consent.consentId}`}
              word="Refresh status"
              onClick={() => onRefresh(consent)}
              disabled={busy}
            >
              <RefreshCw className={busy ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
            </RowAction>
            {canReconnect(consent.consentStatus, consent.expirationDateTime ?? null, now) &&
              !consent.reconnectRequestedAt && (
                <RowAction
                  label={`Reconnect consent ${consent.consentId}`}
                  word="Reconnect"
                  onClick={() => onReconnect(consent)}
                >
                  <RotateCcw className="h-4 w-4" aria-hidden="true" />
                </RowAction>
              )}
            <RowAction
              label={`Delete consent ${consent.consentId}`}
              word="Delete"
              onClick={() => onDelete(consent)}
              danger
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </RowAction>
          </RowActions>
        );
      },
    },
  ];
}
