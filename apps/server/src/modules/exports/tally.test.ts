import { XMLValidator, XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { TALLY_LEDGERS, tallyDate, tallyVouchersXml, type TallyDocument } from './tally';

const invoice = (overrides: Partial<TallyDocument> = {}): TallyDocument => ({
  kind: 'invoice',
  number: 'INV/26-27/000001',
  issuedAt: new Date('2026-04-30T19:00:00Z'),
  invoiceNumber: 'INV/26-27/000001',
  customerGstin: '27AAPFU0939F1ZV',
  taxablePaise: 781_676,
  cgstPaise: 70_351,
  sgstPaise: 70_350,
  igstPaise: 0,
  untaxedPaise: 0,
  totalPaise: 922_377,
  ...overrides,
});

const books = {
  company: 'Rao & Sons <Traders>',
  supplier: { name: 'Ledgerline Software Services Pvt Ltd', gstin: '29AABCL1234M1Z5' },
};

interface Entry {
  LEDGERNAME: string;
  ISDEEMEDPOSITIVE: 'Yes' | 'No';
  ISPARTYLEDGER: 'Yes' | 'No';
  AMOUNT: string;
  'BILLALLOCATIONS.LIST'?: { NAME: string; BILLTYPE: string; AMOUNT: string };
}
interface Voucher {
  attr: { VCHTYPE: string; ACTION: string };
  DATE: string;
  VOUCHERTYPENAME: string;
  REFERENCE: string;
  PARTYLEDGERNAME: string;
  'ALLLEDGERENTRIES.LIST': Entry[];
}

function parse(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    attributesGroupName: 'attr',
    parseTagValue: false,
    isArray: (name) => ['TALLYMESSAGE', 'ALLLEDGERENTRIES.LIST'].includes(name),
  }).parse(xml);
  const envelope = parsed.ENVELOPE;
  const vouchers: Voucher[] = envelope.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE.map(
    (message: { VOUCHER: Voucher }) => message.VOUCHER,
  );
  return { envelope, vouchers };
}

/** Amounts in paise from Tally's decimals, without floating point. */
const paise = (amount: string) => {
  const [whole, fraction] = amount.replace('-', '').split('.');
  expect(fraction).toHaveLength(2);
  return (amount.startsWith('-') ? -1 : 1) * (Number(whole) * 100 + Number(fraction));
};

describe('TallyPrime import XML', () => {
  it('writes an invoice and its credit note as the exact file Tally imports', () => {
    const note = invoice({
      kind: 'credit-note',
      number: 'CN/26-27/000001',
      issuedAt: new Date('2026-05-10T05:00:00Z'),
      taxablePaise: 25_424,
      cgstPaise: 2_288,
      sgstPaise: 2_288,
      totalPaise: 30_000,
    });
    const supplier = books.supplier.name;
    // each ledger line of a voucher, as Tally reads it: a debit deemed positive, a negative amount
    const line = (ledger: string, debit: boolean, party: boolean, amount: string, bill = '') =>
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>${ledger}</LEDGERNAME>` +
      `<ISDEEMEDPOSITIVE>${debit ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE>` +
      `<ISPARTYLEDGER>${party ? 'Yes' : 'No'}</ISPARTYLEDGER><AMOUNT>${amount}</AMOUNT>${bill}` +
      `</ALLLEDGERENTRIES.LIST>`;
    expect(tallyVouchersXml(books, [invoice(), note])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<ENVELOPE>',
        '<HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER>',
        '<BODY>',
        '<IMPORTDATA>',
        '<REQUESTDESC>',
        '<REPORTNAME>Vouchers</REPORTNAME>',
        '<STATICVARIABLES><SVCURRENTCOMPANY>Rao &amp; Sons &lt;Traders&gt;</SVCURRENTCOMPANY></STATICVARIABLES>',
        '</REQUESTDESC>',
        '<REQUESTDATA>',
        '<TALLYMESSAGE xmlns:UDF="TallyUDF">',
        '<VOUCHER VCHTYPE="Purchase" ACTION="Create" OBJVIEW="Accounting Voucher View">',
        // issued at 00:30 on 1 May in India, 30 April in UTC
        '<DATE>20260501</DATE>',
        '<VOUCHERTYPENAME>Purchase</VOUCHERTYPENAME>',
        '<VOUCHERNUMBER>INV/26-27/000001</VOUCHERNUMBER>',
        '<REFERENCE>INV/26-27/000001</REFERENCE>',
        '<REFERENCEDATE>20260501</REFERENCEDATE>',
        `<PARTYLEDGERNAME>${supplier}</PARTYLEDGERNAME>`,
        '<PARTYGSTIN>29AABCL1234M1Z5</PARTYGSTIN>',
        `<NARRATION>Tax invoice INV/26-27/000001 from ${supplier}</NARRATION>`,
        '<PERSISTEDVIEW>Accounting Voucher View</PERSISTEDVIEW>',
        line(
          supplier,
          false,
          true,
          '9223.77',
          '<BILLALLOCATIONS.LIST><NAME>INV/26-27/000001</NAME><BILLTYPE>New Ref</BILLTYPE><AMOUNT>9223.77</AMOUNT></BILLALLOCATIONS.LIST>',
        ),
        line('Software Subscription', true, false, '-7816.76'),
        line('Input CGST', true, false, '-703.51'),
        line('Input SGST', true, false, '-703.50'),
        '</VOUCHER>',
        '</TALLYMESSAGE>',
        '<TALLYMESSAGE xmlns:UDF="TallyUDF">',
        '<VOUCHER VCHTYPE="Debit Note" ACTION="Create" OBJVIEW="Accounting Voucher View">',
        '<DATE>20260510</DATE>',
        '<VOUCHERTYPENAME>Debit Note</VOUCHERTYPENAME>',
        '<VOUCHERNUMBER>CN/26-27/000001</VOUCHERNUMBER>',
        '<REFERENCE>CN/26-27/000001</REFERENCE>',
        '<REFERENCEDATE>20260510</REFERENCEDATE>',
        `<PARTYLEDGERNAME>${supplier}</PARTYLEDGERNAME>`,
        '<PARTYGSTIN>29AABCL1234M1Z5</PARTYGSTIN>',
        `<NARRATION>Credit note CN/26-27/000001 against invoice INV/26-27/000001 from ${supplier}</NARRATION>`,
        '<PERSISTEDVIEW>Accounting Voucher View</PERSISTEDVIEW>',
        line(
          supplier,
          true,
          true,
          '-300.00',
          '<BILLALLOCATIONS.LIST><NAME>INV/26-27/000001</NAME><BILLTYPE>Agst Ref</BILLTYPE><AMOUNT>-300.00</AMOUNT></BILLALLOCATIONS.LIST>',
        ),
        line('Software Subscription', false, false, '254.24'),
        line('Input CGST', false, false, '22.88'),
        line('Input SGST', false, false, '22.88'),
        '</VOUCHER>',
        '</TALLYMESSAGE>',
        '</REQUESTDATA>',
        '</IMPORTDATA>',
        '</BODY>',
        '</ENVELOPE>',
        '',
      ].join('\n'),
    );
  });

  it('wraps the vouchers in the envelope of Tally’s import reference', () => {
    const { envelope } = parse(tallyVouchersXml(books, [invoice()]));
    expect(envelope.HEADER.TALLYREQUEST).toBe('Import Data');
    expect(envelope.BODY.IMPORTDATA.REQUESTDESC.REPORTNAME).toBe('Vouchers');
    expect(envelope.BODY.IMPORTDATA.REQUESTDESC.STATICVARIABLES.SVCURRENTCOMPANY).toBe(
      'Rao & Sons <Traders>',
    );
  });

  it('books an invoice as a Purchase: purchase and input GST debited, the supplier credited', () => {
    const { vouchers } = parse(tallyVouchersXml(books, [invoice()]));
    const [voucher] = vouchers;
    expect(voucher!.attr).toMatchObject({ VCHTYPE: 'Purchase', ACTION: 'Create' });
    // 00:30 on 1 May in India
    expect(voucher!.DATE).toBe('20260501');
    expect(voucher!.REFERENCE).toBe('INV/26-27/000001');
    expect(voucher!.PARTYLEDGERNAME).toBe(books.supplier.name);
    expect(
      voucher!['ALLLEDGERENTRIES.LIST'].map((e) => [e.LEDGERNAME, e.ISDEEMEDPOSITIVE, e.AMOUNT]),
    ).toEqual([
      [books.supplier.name, 'No', '9223.77'],
      [TALLY_LEDGERS.purchase, 'Yes', '-7816.76'],
      [TALLY_LEDGERS.cgst, 'Yes', '-703.51'],
      [TALLY_LEDGERS.sgst, 'Yes', '-703.50'],
    ]);
    expect(voucher!['ALLLEDGERENTRIES.LIST'][0]!['BILLALLOCATIONS.LIST']).toEqual({
      NAME: 'INV/26-27/000001',
      BILLTYPE: 'New Ref',
      AMOUNT: '9223.77',
    });
  });

  it('books a credit note as a Debit Note against its invoice, every entry the other way round', () => {
    const note = invoice({
      kind: 'credit-note',
      number: 'CN/26-27/000001',
      taxablePaise: 25_424,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 4_576,
      totalPaise: 30_000,
    });
    const { vouchers } = parse(tallyVouchersXml(books, [note]));
    const entries = vouchers[0]!['ALLLEDGERENTRIES.LIST'];
    expect(vouchers[0]!.attr.VCHTYPE).toBe('Debit Note');
    expect(entries.map((e) => [e.LEDGERNAME, e.ISDEEMEDPOSITIVE, e.AMOUNT])).toEqual([
      [books.supplier.name, 'Yes', '-300.00'],
      [TALLY_LEDGERS.purchase, 'No', '254.24'],
      [TALLY_LEDGERS.igst, 'No', '45.76'],
    ]);
    expect(entries[0]!['BILLALLOCATIONS.LIST']).toMatchObject({
      NAME: 'INV/26-27/000001',
      BILLTYPE: 'Agst Ref',
    });
  });

  it('balances each voucher’s debits and credits to the paisa, a debit deemed positive and negative', () => {
    const documents = [
      invoice(),
      invoice({ number: 'INV/26-27/000002', untaxedPaise: 1_999, totalPaise: 924_376 }),
      invoice({
        kind: 'credit-note',
        number: 'CN/26-27/000001',
        taxablePaise: 1,
        cgstPaise: 1,
        sgstPaise: 0,
        totalPaise: 2,
      }),
    ];
    const { vouchers } = parse(tallyVouchersXml(books, documents));
    expect(vouchers).toHaveLength(3);
    for (const voucher of vouchers) {
      const entries = voucher['ALLLEDGERENTRIES.LIST'];
      const debits = entries.filter((e) => e.ISDEEMEDPOSITIVE === 'Yes');
      const credits = entries.filter((e) => e.ISDEEMEDPOSITIVE === 'No');
      for (const e of debits) expect(paise(e.AMOUNT)).toBeLessThan(0);
      for (const e of credits) expect(paise(e.AMOUNT)).toBeGreaterThan(0);
      const sum = (list: Entry[]) => list.reduce((total, e) => total + paise(e.AMOUNT), 0);
      expect(-sum(debits)).toBe(sum(credits));
    }
  });

  it('refuses a document whose amounts do not add up, rather than unbalance the books', () => {
    // a paisa more billed than its lines hold: the credit exceeds the debits by that paisa
    expect(() => tallyVouchersXml(books, [invoice({ totalPaise: 922_378 })])).toThrow(
      new Error('INV/26-27/000001 does not balance by -1 paise'),
    );
    expect(() => tallyVouchersXml(books, [invoice({ totalPaise: 922_376 })])).toThrow(
      new Error('INV/26-27/000001 does not balance by 1 paise'),
    );
  });

  it('escapes names with & and < and drops characters XML cannot carry', () => {
    const xml = tallyVouchersXml(
      {
        company: 'A&B <Co> "x" \'y\'\u0001',
        supplier: { name: 'S&T <Ltd>', gstin: books.supplier.gstin },
      },
      [invoice()],
    );
    expect(xml).toContain(
      '<SVCURRENTCOMPANY>A&amp;B &lt;Co&gt; &quot;x&quot; &apos;y&apos;</SVCURRENTCOMPANY>',
    );
    const { vouchers } = parse(xml);
    expect(vouchers[0]!.PARTYLEDGERNAME).toBe('S&T <Ltd>');
  });

  it('dates a voucher by the day in India', () => {
    expect(tallyDate(new Date('2027-03-31T18:29:59Z'))).toBe('20270331');
    expect(tallyDate(new Date('2027-03-31T18:30:00Z'))).toBe('20270401');
  });
});
