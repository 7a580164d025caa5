import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Consent } from '@portal/contract';
import { formatDateTime, isPast } from '@/lib/format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';
import { ConsentStatusBadge } from './consent-status-badge';
import { CopyButton } from './copy-button';
import { truncateToken } from './consent-rules';
import { permissionName } from './permission-names';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-slate-100 py-3 first:border-t-0">
      <h3 className="mb-2 text-sm font-semibold text-slate-900">{title}</h3>
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
  consent: Consent | null;
  onClose(): void;
  onRefresh(consent: Consent): void;
  refreshing: boolean;
}

/** Every item of a consent (spec §2 Details dialog). */
export function ConsentDetailsDialog({
  consent,
  onClose,
  onRefresh,
  refreshing,
}: ConsentDetailsDialogProps) {
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
          <Section title="Status">
            <dl>
              <Item label="Status">
                <ConsentStatusBadge status={consent.consentStatus} />
              </Item>
              <Item label="Last Updated">{formatDateTime(consent.lastUpdated)}</Item>
            </dl>
          </Section>
          <Section title="Partner">
            <dl>
              <Item label="Partner Name">{consent.partnerName}</Item>
              <Item label="Partner ID">
                <span className="break-words font-mono">{consent.partnerId}</span>
                <CopyButton value={consent.partnerId} label="Partner ID" />
              </Item>
            </dl>
          </Section>
          <Section title="Document">
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
          <Section title="Authorized APIs">
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
          <Section title="Net Banking">
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
          <Section title="Token Information">
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
          <Section title="Timeline">
            <dl>
              <Item label="Created">{formatDateTime(consent.createdAt)}</Item>
              <Item label="Consent Date">{formatDateTime(consent.consentCreationDate)}</Item>
              <Item label="Last Updated">{formatDateTime(consent.lastUpdated)}</Item>
            </dl>
          </Section>
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => onRefresh(consent)} disabled={refreshing}>
              <RefreshCw
                className={refreshing ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
                aria-hidden="true"
              />
              Refresh Status
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
