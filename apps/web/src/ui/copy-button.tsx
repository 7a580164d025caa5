import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from './button';
import { toast } from '@/lib/toast';

/** How long a labelled button says 'Copied' before it reads as before. */
const COPIED_SHOWN_MS = 2000;

/**
 * Copies the whole `value`; its name is always 'Copy {label}'. Beside a value it is an icon and
 * says it in a toast, '{label} copied to clipboard!' (spec §8). With `showLabel` it reads
 * 'Copy {label}' and says 'Copied' in place for a moment, where a screen reader hears it. A
 * copy the browser refuses is an error toast either way.
 */
export function CopyButton({
  value,
  label,
  showLabel = false,
}: {
  value: string;
  label: string;
  showLabel?: boolean;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      toast.error(`Could not copy the ${label.toLowerCase()}`);
      return;
    }
    if (showLabel) setCopied(true);
    else toast.success(`${label} copied to clipboard!`);
  }

  if (!showLabel) {
    return (
      <Button variant="ghost" size="icon" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        <Copy className="h-4 w-4" aria-hidden="true" />
      </Button>
    );
  }
  const Icon = copied ? Check : Copy;
  return (
    <Button variant="secondary" className="max-md:h-11" onClick={() => void copy()}>
      <Icon className="mr-2 h-4 w-4" aria-hidden="true" />
      <span aria-live="polite">{copied ? 'Copied' : `Copy ${label}`}</span>
    </Button>
  );
}
