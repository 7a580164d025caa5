/** GST state codes (the first two digits of a GSTIN). */
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

export const stateCodeOf = (gstin: string) => gstin.slice(0, 2);

export const stateName = (code: string) => GST_STATES[code] ?? 'Unknown state';

export interface GstSplit {
  kind: 'CGST+SGST' | 'IGST';
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
}

/** Intra-state supply pays CGST + SGST (half each), inter-state supply pays IGST. */
export function splitGst(gstPaise: number, supplierGstin: string, customerGstin: string): GstSplit {
  if (stateCodeOf(supplierGstin) === stateCodeOf(customerGstin)) {
    const cgstPaise = Math.round(gstPaise / 2);
    return { kind: 'CGST+SGST', cgstPaise, sgstPaise: gstPaise - cgstPaise, igstPaise: 0 };
  }
  return { kind: 'IGST', cgstPaise: 0, sgstPaise: 0, igstPaise: gstPaise };
}

/** The Indian financial year (April to March, in IST) of a moment: '2026-27'. */
export function financialYearOf(date: Date): string {
  const ist = new Date(date.getTime() + 330 * 60 * 1000);
  const year = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= 3 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}
