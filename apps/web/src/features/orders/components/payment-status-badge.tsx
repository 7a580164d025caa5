import { CheckCircle2, Clock, HelpCircle, RotateCcw, XCircle } from 'lucide-react';
import { Badge, type BadgeTone } from '@/ui/badge';

const looks: Record<string, { tone: BadgeTone; Icon: typeof Clock }> = {
  Completed: { tone: 'green', Icon: CheckCircle2 },
  Pending: { tone: 'yellow', Icon: Clock },
  Failed: { tone: 'red', Icon: XCircle },
  Refunded: { tone: 'blue', Icon: RotateCcw },
};

/** Spec §4 payment status, with its icon; any other status is grey. */
export function PaymentStatusBadge({ status }: { status: string }) {
  const { tone, Icon } = looks[status] ?? { tone: 'grey' as const, Icon: HelpCircle };
  return (
    <Badge tone={tone}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {status}
    </Badge>
  );
}
