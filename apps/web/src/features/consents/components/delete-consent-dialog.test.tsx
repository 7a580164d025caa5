import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Consent } from '@portal/contract';
import { DeleteConsentDialog } from './delete-consent-dialog';

const consent = (over: Partial<Consent>): Consent => ({
  _id: 'id-1',
  consentId: 'sbk-intent-001',
  consentStatus: 'Approved',
  partnerName: 'GST Reconciler',
  partnerId: 'PTN-GSTRECON',
  documentUploaded: 'N',
  apiList: [],
  netBankingUserId: null,
  accessToken: null,
  accessTokenExpiresAt: null,
  refreshToken: null,
  refreshTokenExpiresAt: null,
  createdAt: '2026-05-20T10:00:00.000Z',
  consentCreationDate: null,
  lastUpdated: '2026-05-21T10:00:00.000Z',
  ...over,
});

const open = (c: Consent) =>
  render(
    <DeleteConsentDialog consent={c} onCancel={vi.fn()} onConfirm={vi.fn()} deleting={false} />,
  );

describe('DeleteConsentDialog', () => {
  it('names the data clusters and the accounts that stop being read', () => {
    open(
      consent({
        apiList: ['ReadTransactionsBasic', 'ReadParty'],
        accounts: ['XXXX1234', 'XXXX9876'],
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Delete Consent' })).toHaveTextContent(
      'GST Reconciler can no longer read your account transactions and your contact and party details, from accounts XXXX1234 and XXXX9876.',
    );
  });

  it('says "your bank data" for permissions outside every cluster, and one account by itself', () => {
    open(consent({ apiList: ['ReadSomethingNew'], accounts: ['XXXX1234'] }));
    expect(screen.getByRole('dialog', { name: 'Delete Consent' })).toHaveTextContent(
      'GST Reconciler can no longer read your bank data, from account XXXX1234.',
    );
  });
});
