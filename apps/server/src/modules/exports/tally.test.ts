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
    // 01:30 on 1 May in India
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
    expect(() => tallyVouchersXml(books, [invoice({ totalPaise: 922_378 })])).toThrow(/balance/);
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
