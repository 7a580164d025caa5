import type { ConsentStatus } from '@portal/contract';
import { Badge, type BadgeTone } from '@/ui/badge';

const tones: Record<string, BadgeTone> = {
  Approved: 'green',
  Rejected: 'red',
  Expired: 'grey',
  Revoked: 'grey',
};

/** Pending, and anything unknown, gets the default look (spec §4). */
export function ConsentStatusBadge({ status }: { status: ConsentStatus | 'Revoked' }) {
  return <Badge tone={tones[status] ?? 'yellow'}>{status}</Badge>;
}
