import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { MAX_PASSKEYS, RECOVERY_CODE_COUNT, passkeyMessages, type Passkey } from '@portal/contract';
import { useTwoFactorStatus } from '@/features/two-factor/api/two-factor';
import { formatDate, formatDateTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { usePasskeys } from '../api/passkeys';
import { AddPasskeyDialog } from './add-passkey-dialog';
import { RemovePasskeyDialog } from './remove-passkey-dialog';
import { RenamePasskeyDialog } from './rename-passkey-dialog';

const EMPTY =
  'No passkeys yet. A passkey signs you in with your fingerprint, face or screen lock instead of an e-mailed code.';

/** A new passkey's suggested name, numbered so that two are told apart until renamed. */
const suggestedName = (count: number) => (count === 0 ? 'Passkey' : `Passkey ${count + 1}`);

/**
 * The Security page's "Passkeys" section: the account's passkeys, and adding, renaming and
 * removing them. `onChanged` is told when one is added or removed.
 */
export function PasskeysSection({ onChanged }: { onChanged?(): void }) {
  const list = usePasskeys();
  const status = useTwoFactorStatus();
  // a browser does not gain WebAuthn while the page is open
  const [supported] = useState(browserSupportsWebAuthn);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const data = list.data?.data;
  const passkeys = data?.passkeys ?? [];
  const full = passkeys.length >= MAX_PASSKEYS;
  const appOn = Boolean(status.data?.data.enabledAt);

  return (
    <Card aria-labelledby="passkeys-heading">
      <CardHeader title={<span id="passkeys-heading">Passkeys</span>} />
      <CardBody className="space-y-4">
        {list.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3">
            <p className="text-sm text-red-700">
              {errorMessage(list.error, 'Failed to load your passkeys')}
            </p>
            <Button
              variant="secondary"
              aria-label="Retry loading the passkeys"
              onClick={() => void list.refetch()}
            >
              Retry
            </Button>
          </div>
        ) : !data ? (
          <div className="h-16 animate-pulse rounded-md bg-slate-100" aria-label="Loading" />
        ) : (
          <>
            {passkeys.length === 0 ? (
              <div className="flex items-start gap-3">
                <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
                <p className="text-sm text-slate-700">{EMPTY}</p>
              </div>
            ) : (
              <>
                <p className="text-sm text-slate-700">
                  Sign-in asks for one of these passkeys after your password.
                  {!appOn &&
                    ` ${data.recoveryCodesLeft} of ${RECOVERY_CODE_COUNT} recovery codes left.`}
                </p>
                <ul aria-label="Your passkeys" className="divide-y divide-slate-100">
                  {passkeys.map((passkey) => (
                    <PasskeyRow
                      key={passkey.id}
                      passkey={passkey}
                      onRename={() => setRenaming(passkey)}
                      onRemove={() => setRemoving(passkey)}
                    />
                  ))}
                </ul>
                {passkeys.some((passkey) => passkey.synced) && (
                  <p className="text-sm text-slate-600">
                    Synced: kept by your password manager on each device signed in to it.
                  </p>
                )}
              </>
            )}
            {supported ? (
              <div className="flex flex-col items-start gap-2">
                <Button
                  className="max-md:h-11 max-md:w-full"
                  disabled={full}
                  aria-describedby={full ? 'passkeys-full' : undefined}
                  onClick={() => setAdding(true)}
                >
                  Add a passkey
                </Button>
                {full && (
                  <p id="passkeys-full" className="text-sm text-slate-600">
                    {passkeyMessages.tooMany}
                  </p>
                )}
              </div>
            ) : (
              <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
                This browser cannot create or use passkeys. To add one, open this page in an
                up-to-date browser on a device with a fingerprint, face or screen lock.
              </p>
            )}
          </>
        )}
      </CardBody>
      <AddPasskeyDialog
        open={adding}
        onOpenChange={setAdding}
        defaultName={suggestedName(passkeys.length)}
        onAdded={onChanged}
      />
      <RenamePasskeyDialog passkey={renaming} onOpenChange={(open) => !open && setRenaming(null)} />
      <RemovePasskeyDialog
        passkey={removing}
        last={passkeys.length === 1}
        appOn={appOn}
        onOpenChange={(open) => !open && setRemoving(null)}
        onRemoved={onChanged}
      />
    </Card>
  );
}

/** One passkey: its name, when it was added and last used, and its two actions. */
function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  onRename(): void;
  onRemove(): void;
}) {
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          <KeyRound className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
          <span className="break-words">{passkey.name}</span>
          {passkey.synced && <Badge tone="blue">Synced</Badge>}
        </p>
        <p className="text-sm text-slate-600">
          Added {formatDate(passkey.createdAt)} ·{' '}
          {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
        <Button
          variant="secondary"
          className="max-md:h-11 max-md:w-full"
          aria-label={`Rename ${passkey.name}`}
          onClick={onRename}
        >
          Rename
        </Button>
        <Button
          variant="secondary"
          className="max-md:h-11 max-md:w-full"
          aria-label={`Remove ${passkey.name}`}
          onClick={onRemove}
        >
          Remove
        </Button>
      </div>
    </li>
  );
}
