import { Copy } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/ui/button';

/** Copies the full value and says so: '{label} copied to clipboard!' (spec §8). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied to clipboard!`);
    } catch {
      toast.error(`Could not copy the ${label.toLowerCase()}`);
    }
  }
  return (
    <Button variant="ghost" size="icon" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      <Copy className="h-4 w-4" aria-hidden="true" />
    </Button>
  );
}
