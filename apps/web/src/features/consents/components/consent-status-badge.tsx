import type { ConsentStatus } from '@portal/contract';
import { Badge, type BadgeTone } from '@/ui/badge';

const tones: Record<string, BadgeTone> = {
  Approved: 'green',
  Rejected: 'red',
  Expired: 'grey',
  Revoked: 'grey',
};

/**
 * Pending, and anything unknown, gets the default look (spec §4). A paused consent keeps its
 * status and shows Paused beside it (decision 077).
 */
export function ConsentStatusBadge({
  status,
  pausedAt = null,
}: {
  status: ConsentStatus | 'Revoked';
  pausedAt?: string | null;
}) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={tones[status] ?? 'yellow'}>{status}</Badge>
      {pausedAt && <Badge tone="yellow">Paused</Badge>}
    </span>
  );
}
