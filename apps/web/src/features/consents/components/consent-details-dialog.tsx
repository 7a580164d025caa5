import { Pause, Play, RefreshCw, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  DEFAULT_FETCHES_PER_DAY,
  canReconnect,
  type Consent,
  type PastConsent,
} from '@portal/contract';
import { formatDate, formatDateTime, formatNumber, isPast } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { CopyButton } from '@/ui/copy-button';
import { Dialog } from '@/ui/dialog';
import { ConsentStatusBadge } from './consent-status-badge';
import { transactionPeriod, truncateToken } from './consent-rules';
import { permissionName } from './permission-names';
import { WhatIsShared } from './what-is-shared';

function Section({
  title,
  children,
  level = 3,
}: {
  title: string;
  children: ReactNode;
  level?: 3 | 4;
}) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <section className="border-t border-slate-100 py-3 first:border-t-0">
      <Heading className="mb-2 text-sm font-semibold text-slate-900">{title}</Heading>
      {children}
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-1 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 text-slate-900">{children}</dd>
    </div>
  );
}

function TokenItem({
  label,
  token,
  expiresAt,
}: {
  label: string;
  token: string | null;
  expiresAt: string | null;
}) {
  return (
    <div className="py-1 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-1">
        {token ? (
          <>
            <div className="flex items-center gap-2">
              {/* one line, cut short with an ellipsis where it does not fit; Copy takes it whole */}
              <code className="block min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-800">
                {truncateToken(token)}
              </code>
              <CopyButton value={token} label={label} />
            </div>
            {isPast(expiresAt) ? (
              <p className="mt-1 flex items-center gap-1.5 text-xs text-slate-600">
                <Badge tone="red">Expired</Badge> on {formatDateTime(expiresAt)}
              </p>
            ) : (
              <p className="mt-1 text-xs text-slate-600">Expires: {formatDateTime(expiresAt)}</p>
            )}
          </>
        ) : (
          <span className="text-slate-600">Not issued</span>
        )}
      </dd>
    </div>
  );
}

export interface ConsentDetailsDialogProps {
  consent: Consent | PastConsent | null;
  onClose(): void;
  /** Absent for a past consent: there is nothing left to ask the bank. */
  onRefresh?(consent: Consent): void;
  refreshing?: boolean;
  /** Shown for a consent that offers Reconnect (decision 041). */
  onReconnect?(consent: Consent): void;
  /** Pauses an approved consent, or resumes a paused one (decision 077). */
  onTogglePause?(consent: Consent): void;
  pausing?: boolean;
}

/** What the consent gives, in the customer's words: the dashboards' order (issue 14, part 4). */
function Terms({ consent }: { consent: Consent | PastConsent }) {
  const fetches = consent.fetchesPerDay ?? DEFAULT_FETCHES_PER_DAY;
  const accounts = consent.accounts ?? [];
  return (
    <>
      <Section title="What is shared">
        <WhatIsShared permissions={consent.apiList} />
      </Section>
      <Section title="Purpose">
        <p className="text-sm text-slate-900">
          {consent.purpose ?? `Not stated by ${consent.partnerName}`}
        </p>
      </Section>
      <Section title="Transaction period">
        <p className="text-sm text-slate-900">{transactionPeriod(consent)}</p>
      </Section>
      <Section title="How often">
        <p className="text-sm text-slate-900">
          Up to {fetches} {fetches === 1 ? 'time' : 'times'} a day
        </p>
      </Section>
      <Section title="How long the data is kept">
        <p className="text-sm text-slate-900">
          {consent.dataLifeDays
            ? `${consent.partnerName} may keep what it reads for up to ${formatNumber(consent.dataLifeDays)} ${consent.dataLifeDays === 1 ? 'day' : 'days'}`
            : `Not stated by ${consent.partnerName}`}
        </p>
      </Section>
      <Section title="Granted and expires">
        <dl>
          <Item label="Granted">
            {formatDateTime(consent.consentCreationDate ?? consent.createdAt)}
          </Item>
          <Item label={isPast(consent.expirationDateTime) ? 'Expired' : 'Expires'}>
            {formatDateTime(consent.expirationDateTime, 'No expiry set')}
          </Item>
        </dl>
      </Section>
      <Section title="Accounts">
        {accounts.length > 0 ? (
          <ul className="flex flex-wrap gap-2 text-sm" aria-label="Accounts">
            {accounts.map((account) => (
              <li key={account} className="rounded bg-slate-100 px-2 py-1 font-mono text-slate-900">
                {account}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-900">The accounts you choose at your bank</p>
        )}
      </Section>
      <Section title="Last accessed">
        <p className="text-sm text-slate-900">
          {formatDateTime(
            consent.lastAccessedAt,
            `${consent.partnerName} has not read any data yet`,
          )}
        </p>
        {(consent.readsMade ?? 0) > 0 && (
          <p className="mt-1 text-sm text-slate-600">
            Reads made: {formatNumber(consent.readsMade ?? 0)}
          </p>
        )}
      </Section>
    </>
  );
}

const isCurrent = (consent: Consent | PastConsent): consent is Consent =>
  consent.consentStatus !== 'Revoked' && !('revokedAt' in consent);

/**
 * Every item of a consent: what it gives first, then the spec's items (spec §2 Details dialog)
 * under Technical details.
 */
export function ConsentDetailsDialog({
  consent,
  onClose,
  onRefresh,
  refreshing = false,
  onReconnect,
  onTogglePause,
  pausing = false,
}: ConsentDetailsDialogProps) {
  const current = consent && isCurrent(consent) ? consent : null;
  const pausable = current?.consentStatus === 'Approved';
  return (
    <Dialog
      open={consent !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Consent Details"
      description={
        consent ? <span className="break-words font-mono">{consent.consentId}</span> : undefined
      }
      className="max-w-2xl"
    >
      {consent && (
        <div>
          <p className="mb-2 flex flex-wrap items-center gap-2 text-sm text-slate-900">
            <span className="font-medium">{consent.partnerName}</span>
            <ConsentStatusBadge status={consent.consentStatus} pausedAt={consent.pausedAt} />
          </p>
          {consent.pausedAt && (
            <p className="mb-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Paused since {formatDateTime(consent.pausedAt)}: {consent.partnerName} cannot read
              your bank data until you resume this consent.
            </p>
          )}
          {consent.reconnectRequestedAt && (
            <p className="mb-2 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
              Reconnect requested on {formatDate(consent.reconnectRequestedAt)}:{' '}
              {consent.partnerName} has been asked for a fresh consent.
            </p>
          )}
          <Terms consent={consent} />
          <h3 className="mt-2 border-t border-slate-200 pt-4 text-base font-semibold text-slate-900">
            Technical details
          </h3>
          <Section title="Status" level={4}>
            <dl>
              <Item label="Status">
                <ConsentStatusBadge status={consent.consentStatus} />
              </Item>
              <Item label="Last Updated">{formatDateTime(consent.lastUpdated)}</Item>
            </dl>
          </Section>
          <Section title="Partner" level={4}>
            <dl>
              <Item label="Partner Name">{consent.partnerName}</Item>
              <Item label="Partner ID">
                <span className="break-words font-mono">{consent.partnerId}</span>
                <CopyButton value={consent.partnerId} label="Partner ID" />
              </Item>
            </dl>
          </Section>
          <Section title="Document" level={4}>
            <dl>
              <Item label="Document Status">
                {consent.documentUploaded === 'Y' ? (
                  <Badge tone="green">Uploaded</Badge>
                ) : (
                  <Badge tone="grey">Not uploaded</Badge>
                )}
              </Item>
            </dl>
          </Section>
          <Section title="Authorized APIs" level={4}>
            {consent.apiList.length > 0 ? (
              <ul className="flex flex-wrap gap-2" aria-label="Authorized APIs">
                {consent.apiList.map((code) => (
                  <li key={code}>
                    <Badge tone="blue">{permissionName(code)}</Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">None</p>
            )}
          </Section>
          <Section title="Net Banking" level={4}>
            <dl>
              <Item label="Net Banking User ID">
                {consent.netBankingUserId ? (
                  <>
                    <span className="font-mono">{consent.netBankingUserId}</span>
                    <CopyButton value={consent.netBankingUserId} label="Net Banking User ID" />
                  </>
                ) : (
                  <span className="text-slate-600">Not available</span>
                )}
              </Item>
            </dl>
          </Section>
          <Section title="Token Information" level={4}>
            <dl>
              <TokenItem
                label="Access Token"
                token={consent.accessToken}
                expiresAt={consent.accessTokenExpiresAt}
              />
              <TokenItem
                label="Refresh Token"
                token={consent.refreshToken}
                expiresAt={consent.refreshTokenExpiresAt}
              />
            </dl>
          </Section>
          <Section title="Timeline" level={4}>
            <dl>
              <Item label="Created">{formatDateTime(consent.createdAt)}</Item>
              <Item label="Consent Date">{formatDateTime(consent.consentCreationDate)}</Item>
              <Item label="Last Updated">{formatDateTime(consent.lastUpdated)}</Item>
            </dl>
          </Section>
          <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            {current &&
              onReconnect &&
              !current.reconnectRequestedAt &&
              canReconnect(
                current.consentStatus,
                current.expirationDateTime ?? null,
                new Date(),
              ) && (
                <Button variant="secondary" onClick={() => onReconnect(current)}>
                  <RotateCcw className="h-4 w-4" aria-hidden="true" />
                  Reconnect
                </Button>
              )}
            {current && pausable && onTogglePause && (
              <Button variant="secondary" onClick={() => onTogglePause(current)} disabled={pausing}>
                {current.pausedAt ? (
                  <Play className="h-4 w-4" aria-hidden="true" />
                ) : (
                  <Pause className="h-4 w-4" aria-hidden="true" />
                )}
                {current.pausedAt ? 'Resume' : 'Pause'}
              </Button>
            )}
            {current && onRefresh && (
              <Button onClick={() => onRefresh(current)} disabled={refreshing}>
                <RefreshCw
                  className={refreshing ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
                  aria-hidden="true"
                />
                Refresh Status
              </Button>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
