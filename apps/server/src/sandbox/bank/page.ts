import type { SandboxBankConsent } from './schema';
import type { ReadSummary } from './reads';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const when = (date: Date) =>
  date.toLocaleString('en-IN', {
    timeZone: 'Asia/Kolkata',
    dateStyle: 'medium',
    timeStyle: 'short',
  });

const day = (date: Date) =>
  date.toLocaleDateString('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'medium' });

/** The terms the bank holds and applies to every read. */
function termsCell(row: SandboxBankConsent) {
  const period =
    row.transactionFromDateTime || row.transactionToDateTime
      ? `${row.transactionFromDateTime ? day(row.transactionFromDateTime) : 'any time'} to ${row.transactionToDateTime ? day(row.transactionToDateTime) : 'any time'}`
      : 'Any period';
  return [
    `Purpose: ${escapeHtml(row.purpose ?? 'Not stated')}`,
    `Transactions: ${period}`,
    `Reads a day: ${row.fetchesPerDay}`,
  ].join('<br>');
}

/** What the bank recorded of the client's reads. */
function readsCell(reads: ReadSummary | undefined) {
  if (!reads) return 'None yet';
  const last = reads.lastAllowedAt ? `<br>Last: ${when(reads.lastAllowedAt)}` : '';
  return `${reads.allowed} allowed, ${reads.refused} refused${last}`;
}

const RESULTS: Record<string, string> = {
  authorised: 'Consent {id} authorised. The portal shows it as Approved after a status refresh.',
  rejected: 'Consent {id} rejected.',
  decided: 'Consent {id} was already decided or has expired; nothing changed.',
  missing: 'There is no consent {id} at this bank.',
};

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; color: #0f172a; background: #f8fafc; }
  header { background: #14532d; color: #fff; padding: 1rem 2rem; }
  header p { margin: .25rem 0 0; color: #dcfce7; }
  main { padding: 1.5rem 2rem; max-width: 72rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { border-bottom: 1px solid #e2e8f0; padding: .5rem .75rem; text-align: left; vertical-align: top; font-size: .875rem; }
  th { background: #f1f5f9; }
  code { font-size: .8125rem; }
  form { display: inline; }
  button { font: inherit; padding: .375rem .75rem; border-radius: .375rem; border: 1px solid #334155; background: #fff; color: #0f172a; cursor: pointer; margin-right: .25rem; }
  button.approve { background: #15803d; border-color: #15803d; color: #fff; }
  button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .notice { border: 1px solid #2563eb; background: #eff6ff; padding: .75rem 1rem; border-radius: .375rem; margin-bottom: 1rem; }
`;

/** Server-rendered, with no script at all, so that it passes the portal's CSP. */
export function renderSandboxBankPage(
  rows: SandboxBankConsent[],
  reads: Map<string, ReadSummary>,
  now: Date,
  notice: { result?: string; consent?: string },
): string {
  const message =
    notice.result && RESULTS[notice.result] && notice.consent
      ? RESULTS[notice.result]!.replace('{id}', notice.consent)
      : null;
  const body = rows
    .map((row) => {
      const lapsed = row.expirationDateTime.getTime() <= now.getTime();
      const id = escapeHtml(row.consentId);
      const action = encodeURIComponent(row.consentId);
      const actions =
        row.status === 'AwaitingAuthorisation' && !lapsed
          ? `<form method="post" action="/sandbox/bank/consents/${action}/authorise"><button type="submit" class="approve" aria-label="Authorise ${id}">Authorise</button></form>` +
            `<form method="post" action="/sandbox/bank/consents/${action}/reject"><button type="submit" aria-label="Reject ${id}">Reject</button></form>`
          : '<span>No action</span>';
      const status = row.status === 'Authorised' && lapsed ? 'Authorised (expired)' : row.status;
      return `<tr><td><code>${id}</code></td><td>${escapeHtml(status)}</td><td>${escapeHtml(row.permissions.join(', '))}</td><td>${when(row.creationDateTime)}</td><td>${when(row.expirationDateTime)}</td><td>${termsCell(row)}</td><td>${readsCell(reads.get(row.consentId))}</td><td>${actions}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox Bank: consent requests</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>Sandbox Bank</p><p>A test bank built into the portal. No real accounts are involved.</p></header>
<main>
<h1>Account access consent requests</h1>
${message ? `<p class="notice" role="status">${escapeHtml(message)}</p>` : ''}
${
  rows.length === 0
    ? '<p>No consent requests yet.</p>'
    : `<table>
<caption class="sr">Newest first</caption>
<thead><tr><th scope="col">Consent ID</th><th scope="col">Status</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Terms</th><th scope="col">Reads</th><th scope="col">Decision</th></tr></thead>
<tbody>
${body}
</tbody>
</table>`
}
</main>
</body>
</html>`;
}
