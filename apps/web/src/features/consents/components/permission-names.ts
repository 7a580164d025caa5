/**
 * What each banking permission lets a partner do, in the customer's words. The codes are the
 * Open Banking account-information permissions the bank speaks; the customer never sees them.
 */
const PERMISSION_NAMES: Record<string, string> = {
  ReadAccountsBasic: 'Read accounts',
  ReadAccountsDetail: 'Read account details',
  ReadBalances: 'Read balances',
  ReadBeneficiariesBasic: 'Read payees',
  ReadBeneficiariesDetail: 'Read payee details',
  ReadDirectDebits: 'Read direct debits',
  ReadOffers: 'Read offers',
  ReadPAN: 'Read card numbers',
  ReadParty: 'Read account holder',
  ReadPartyPSU: 'Read your identity',
  ReadProducts: 'Read products',
  ReadScheduledPaymentsBasic: 'Read scheduled payments',
  ReadScheduledPaymentsDetail: 'Read scheduled payment details',
  ReadStandingOrdersBasic: 'Read standing orders',
  ReadStandingOrdersDetail: 'Read standing order details',
  ReadStatementsBasic: 'Read statements',
  ReadStatementsDetail: 'Read statement details',
  ReadTransactionsBasic: 'Read transactions',
  ReadTransactionsCredits: 'Read money received',
  ReadTransactionsDebits: 'Read money paid out',
  ReadTransactionsDetail: 'Read transaction details',
};

/** A permission in plain words; one the map does not know is spelled out from its code. */
export function permissionName(code: string): string {
  const known = PERMISSION_NAMES[code];
  if (known) return known;
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ');
  return words
    .map((word, i) => (i === 0 || /^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
    .join(' ');
}
