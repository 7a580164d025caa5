import { clustersOf, type Consent } from '@portal/contract';
import { Button } from '@/ui/button';
import { Dialog } from '@/ui/dialog';

const listed = (items: string[]) => new Intl.ListFormat('en-IN').format(items);

/**
 * The spec's confirmation, with one line that names the partner and what deleting means, then,
 * as the UK Open Banking and Australian CDR guidelines ask before a revocation, what stops and
 * what becomes of the data already shared.
 */
export function DeleteConsentDialog({
  consent,
  onCancel,
  onConfirm,
  deleting,
}: {
  /** The consent to delete; null when the dialog is closed. */
  consent: Consent | null;
  onCancel(): void;
  onConfirm(): void;
  deleting: boolean;
}) {
  const partnerName = consent?.partnerName;
  const clusters = clustersOf(consent?.apiList ?? []).map(({ cluster }) =>
    cluster.title.replace(/^Your /, 'your '),
  );
  const accounts = consent?.accounts ?? [];
  const shared = clusters.length > 0 ? listed(clusters) : 'your bank data';
  const from =
    accounts.length > 0
      ? `${accounts.length === 1 ? 'account' : 'accounts'} ${listed(accounts)}`
      : 'the accounts you chose at your bank';
  return (
    <Dialog
      open={consent !== null}
      onOpenChange={(next) => !next && onCancel()}
      title="Delete Consent"
      description={
        <>
          Are you sure you want to delete this consent? This action cannot be undone.
          <span className="mt-2 block">
            {partnerName} will no longer be able to read your bank data.
          </span>
        </>
      }
    >
      <dl className="space-y-3 rounded-md bg-slate-50 px-4 py-3 text-sm">
        <div>
          <dt className="font-medium text-slate-900">What stops</dt>
          <dd className="mt-1 text-slate-700">
            {partnerName} can no longer read {shared}, from {from}.
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">Data already shared</dt>
          <dd className="mt-1 text-slate-700">
            What {partnerName} has read so far stays with {partnerName}, under its own terms. To
            have it deleted, ask {partnerName}.
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={deleting} aria-busy={deleting}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
