import { Badge, type BadgeTone } from '@/ui/badge';

const tones: Record<string, BadgeTone> = { Single: 'blue', Multi: 'purple' };

/** Single and Multi have their own look; any other type gets the default one. */
export function PlanTypeBadge({ type }: { type: string }) {
  return <Badge tone={tones[type] ?? 'grey'}>{type}</Badge>;
}

export const companiesLabel = (n: number) => `${n} ${n === 1 ? 'Company' : 'Companies'}`;
