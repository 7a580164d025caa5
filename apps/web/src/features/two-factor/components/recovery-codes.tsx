import { Download } from 'lucide-react';
import { Button } from '@/ui/button';
import { CopyButton } from '@/ui/copy-button';

const asFile = (codes: string[]) =>
  [
    'Connected Banking Portal: recovery codes',
    'Each code signs in once when your authenticator app is not at hand.',
    '',
    ...codes,
    '',
  ].join('\n');

/**
 * The ten recovery codes, shown once: copy them or download them as a text file, then Done
 * (`onDone`), which closes the dialog they are shown in.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([asFile(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'portal-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Keep these codes somewhere safe. Each one signs you in once if your phone is lost. They
          are shown only now.
        </p>
        <ul
          aria-label="Recovery codes"
          className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 font-mono text-sm text-slate-900"
        >
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className="flex flex-col gap-2 sm:flex-row">
          <CopyButton value={codes.join('\n')} label="codes" showLabel />
          <Button variant="secondary" className="max-md:h-11" onClick={download}>
            <Download className="mr-2 h-4 w-4" aria-hidden="true" />
            Download
          </Button>
        </div>
      </div>
      <Button className="w-full max-md:h-11" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
