/** GST state codes (the first two digits of a GSTIN), as the GST portal lists them. */
export const GST_STATES: Record<string, string> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

/** The state codes in the order of their numbers, for a list to choose from. */
export const GST_STATE_CODES = Object.keys(GST_STATES).sort();

export const isGstStateCode = (code: string): boolean => Object.hasOwn(GST_STATES, code);

/** "Karnataka (29)", as invoices and screens name a State. */
export const stateLabel = (code: string): string =>
  `${isGstStateCode(code) ? GST_STATES[code] : 'Unknown state'} (${code})`;

const CODE_POINTS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The GSTN check character of the first 14 characters of a GSTIN (a Luhn mod 36): every second
 * character's value is doubled, each product counts as its quotient plus its remainder by 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = CODE_POINTS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CODE_POINTS[(36 - (sum % 36)) % 36]!;
}

/** 2-digit state, PAN (5 letters, 4 digits, a letter), entity code, 'Z', check character. */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

export const gstinMessages = {
  format:
    'Enter a 15-character GSTIN: 2-digit State code, 10-character PAN, entity code, Z and a check character (for example 27AAPFU0939F1ZV)',
  state: 'The GSTIN starts with an unknown State code',
  checkCharacter: 'This GSTIN is not valid: its last character does not match the check digit',
} as const;

/** What is wrong with a GSTIN (upper case, no spaces), or null when it is a valid one. */
export function gstinProblem(gstin: string): string | null {
  if (!GSTIN_PATTERN.test(gstin)) return gstinMessages.format;
  if (!isGstStateCode(gstin.slice(0, 2))) return gstinMessages.state;
  if (gstinCheckCharacter(gstin) !== gstin[14]) return gstinMessages.checkCharacter;
  return null;
}

export const isValidGstin = (gstin: string): boolean => gstinProblem(gstin) === null;

export type GstKind = 'CGST+SGST' | 'IGST';

/** How GST on one supply is split by its place of supply, in paise. */
export interface GstTaxSplit {
  kind: GstKind;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
}

/**
 * The place of supply decides the tax: within the seller's own State CGST and SGST, half the
 * rate each; to another State IGST.
 */
export const gstKind = (supplierStateCode: string, placeOfSupply: string): GstKind =>
  supplierStateCode === placeOfSupply ? 'CGST+SGST' : 'IGST';
