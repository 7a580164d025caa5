import type { Inv01 } from '../sandbox/irp/inv-01';

/** A valid intra-state invoice of two lines: 1000 + 500 taxable, 18 % GST as CGST and SGST. */
export const validInvoice = (number = 'INV/2026/0001') => ({
  Version: '1.1' as const,
  TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N' },
  DocDtls: { Typ: 'INV' as Inv01['DocDtls']['Typ'], No: number, Dt: '01/06/2026' },
  SellerDtls: {
    Gstin: '29AAGCL1234M1ZA',
    LglNm: 'Ledgerline Software Services Pvt Ltd',
    Addr1: '4th Floor, Prestige Tech Park',
    Loc: 'Bengaluru',
    Pin: 560103,
    Stcd: '29',
  },
  BuyerDtls: {
    Gstin: '27AAPFU0939F1ZV',
    LglNm: 'Udyam Traders',
    Pos: '29',
    Addr1: '14 Marine Drive',
    Loc: 'Mumbai',
    Pin: 400020,
    Stcd: '27',
  },
  ItemList: [
    {
      SlNo: '1',
      IsServc: 'Y',
      HsnCd: '997331',
      UnitPrice: 1000,
      TotAmt: 1000,
      AssAmt: 1000,
      GstRt: 18,
      CgstAmt: 90,
      SgstAmt: 90,
      TotItemVal: 1180,
    },
    {
      SlNo: '2',
      IsServc: 'Y',
      HsnCd: '998314',
      UnitPrice: 500,
      TotAmt: 500,
      AssAmt: 500,
      GstRt: 18,
      CgstAmt: 45,
      SgstAmt: 45,
      TotItemVal: 590,
    },
  ],
  ValDtls: { AssVal: 1500, CgstVal: 135, SgstVal: 135, TotInvVal: 1770 } as Inv01['ValDtls'],
});
