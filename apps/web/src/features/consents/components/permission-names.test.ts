import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSENT_PERMISSIONS } from '@portal/contract';
import { permissionName } from './permission-names';

describe('permissionName', () => {
  it('names the permissions in plain words', () => {
    expect(permissionName('ReadTransactionsBasic')).toBe('Read transactions');
    expect(permissionName('ReadTransactionsDetail')).toBe('Read transaction details');
    expect(permissionName('ReadBalances')).toBe('Read balances');
    expect(permissionName('ReadBeneficiariesDetail')).toBe('Read payee details');
  });

  it('has a plain name for every permission a partner asks for by default', () => {
    for (const code of DEFAULT_CONSENT_PERMISSIONS) {
      expect(permissionName(code)).not.toMatch(/[a-z][A-Z]/);
      expect(permissionName(code)).toMatch(/^Read [a-z]/);
    }
  });

  it('spells out a code it does not know instead of showing it run together', () => {
    expect(permissionName('ReadFutureDatedPayments')).toBe('Read future dated payments');
    expect(permissionName('ReadGSTReturns')).toBe('Read GST returns');
  });
});
