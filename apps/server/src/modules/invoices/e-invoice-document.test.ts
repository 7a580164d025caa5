import { describe, expect, it } from 'vitest';
import type { EInvoicingDeps } from '../../deps';
import { schemaProblems, type Inv01 } from '../../sandbox/irp/inv-01';
import { ruleProblems } from '../../sandbox/irp/rules';
import { invoiceAmounts } from './amounts';
import {
  eInvoiceDocument,
  inv01Date,
  registrationColumns,
  type EInvoiceDocumentInput,
} from './e-invoice-document';

const supplier = {
  name: 'Ledgerline Technologies Private Limited',
  address: '4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103',
  gstin: '29AAGCL1234M1ZA',
};
const recipient = {
  companyName: 'Acme Traders',
  gstin: '27AAPFU0939F1ZV',
  address: 'Office 4, Baner Road, Pune 411045, Maharashtra',
  email: 'accounts@acme.example.in',
  placeOfSupply: '27',
  billingAddress: {
    addressLine1: 'Office 4, Baner Road',
    addressLine2: '',
    city: 'Pune',
    stateCode: '27',
    pin: '411045',
  },
};
const issuedAt = new Date('2026-10-05T20:00:00Z');

const input = (over: Partial<EInvoiceDocumentInput> = {}): EInvoiceDocumentInput => ({
  type: 'INV',
  number: 'INV/26-27/000042',
  issuedAt,
  supplier,
  recipient,
  sacCode: '997331',
  description: 'Gold plan, 365 days',
  amounts: invoiceAmounts(
    { basePaise: 10_000_00, handlingPaise: 200_00, totalPaise: 12_036_00 } as never,
    false,
  ),
  ...over,
});

/** What the IRP would refuse in a document, its schema and its rules alike. */
const refusals = (document: object) => [
  ...schemaProblems(document),
  ...ruleProblems(document as Inv01, new Date('2026-10-06T06:00:00Z'), { largeSupplier: true }),
];

describe('the INV-01 document of a tax invoice', () => {
  it('passes the IRP’s schema and rules, its taxes as the invoice splits them', () => {
    const document = eInvoiceDocument(input()) as Inv01 & Record<string, never>;
    expect(refusals(document)).toEqual([]);
    expect(document).toMatchObject({
      DocDtls: { Typ: 'INV', No: 'INV/26-27/000042', Dt: '06/10/2026' },
      SellerDtls: { Gstin: supplier.gstin, Loc: 'Bengaluru', Pin: 560103, Stcd: '29' },
      BuyerDtls: { Gstin: recipient.gstin, Pos: '27', Loc: 'Pune', Pin: 411045, Stcd: '27' },
      ItemList: [{ HsnCd: '997331', IsServc: 'Y', GstRt: 18 }],
    });
    expect(document.ValDtls.IgstVal).toBeGreaterThan(0);
    expect(document.ValDtls.CgstVal).toBe(0);
  });

  it('names a buyer with no address kept by the State of their GSTIN', () => {
    const document = eInvoiceDocument(
      input({
        recipient: {
          ...recipient,
          address: 'As registered under the GSTIN above',
          billingAddress: null,
        },
      }),
    );
    expect(refusals(document)).toEqual([]);
    expect(document).toMatchObject({
      BuyerDtls: { Addr1: 'As registered under the GSTIN above', Loc: 'Maharashtra', Stcd: '27' },
    });
    expect((document as Inv01 & { BuyerDtls: object }).BuyerDtls).not.toHaveProperty('Pin');
  });

  it('carries a charge outside the taxable value as other charges, and a credit note’s invoice', () => {
    const amounts = {
      taxablePaise: 1_000_00,
      cgstPaise: 90_00,
      sgstPaise: 90_00,
      igstPaise: 0,
      untaxedPaise: 23_60,
      totalPaise: 1_203_60,
    };
    const document = eInvoiceDocument(
      input({
        type: 'CRN',
        number: 'CN/26-27/000007',
        amounts,
        invoice: { number: 'INV/26-27/000042', issuedAt: new Date('2026-09-30T19:00:00Z') },
      }),
    );
    expect(refusals(document)).toEqual([]);
    expect(document).toMatchObject({
      DocDtls: { Typ: 'CRN', No: 'CN/26-27/000007' },
      ValDtls: { AssVal: 1000, CgstVal: 90, SgstVal: 90, OthChrg: 23.6, TotInvVal: 1203.6 },
      RefDtls: { PrecDocDtls: [{ InvNo: 'INV/26-27/000042', InvDt: '01/10/2026' }] },
    });
  });

  it('writes India’s calendar day', () => {
    expect(inv01Date(new Date('2026-03-31T18:29:59Z'))).toBe('31/03/2026');
    expect(inv01Date(new Date('2026-03-31T18:30:00Z'))).toBe('01/04/2026');
  });
});

describe('a registration', () => {
  const on = {} as EInvoicingDeps;

  it('is owed for a buyer with a GSTIN when e-invoicing is on', () => {
    expect(registrationColumns(on, input())).toEqual({
      eInvoiceStatus: 'Being registered',
      eInvoiceDocument: eInvoiceDocument(input()),
    });
  });

  it('is not owed with e-invoicing off, nor for a buyer with no GSTIN (B2C)', () => {
    expect(registrationColumns(null, input())).toEqual({});
    for (const gstin of ['', 'URP']) {
      expect(registrationColumns(on, input({ recipient: { ...recipient, gstin } }))).toEqual({});
    }
  });
});
