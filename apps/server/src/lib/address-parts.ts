/** Where a one-line Indian address ends: `…, Bengaluru, Karnataka 560103`. */
const ADDRESS_END = /^(.+),\s*([^,]{3,50}),\s*[^,]*?(\d{6})\s*$/;

/**
 * A one-line address as its street, city and PIN, the parts an e-invoice names apart; null when
 * it does not end with its city, then its State and PIN.
 */
export function addressParts(
  address: string,
): { street: string; city: string; pin: number } | null {
  const match = ADDRESS_END.exec(address);
  if (!match) return null;
  const [, street, city, pin] = match as unknown as [string, string, string, string];
  return { street: street.trim(), city: city.trim(), pin: Number(pin) };
}
