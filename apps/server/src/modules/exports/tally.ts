import { customerDate } from '@portal/contract';
import type { TaxDocument } from '../invoices/reads';
import { rupees } from './csv';

/**
 * The customer's invoices and credit notes as a TallyPrime import file (decision 042), following
 * Tally's XML integration reference: ENVELOPE > HEADER (TALLYREQUEST Import Data) > BODY >
 * IMPORTDATA > REQUESTDESC (REPORTNAME Vouchers) + REQUESTDATA > TALLYMESSAGE > VOUCHER.
 *
 * In the customer's books an invoice is a Purchase voucher: the purchase ledger and the GST input
 * ledgers are debited, the supplier's party ledger credited. A credit note from the supplier is a
 * Debit Note voucher in the buyer's books, the same entries the other way round. Tally writes a
 * debit as ISDEEMEDPOSITIVE Yes with a negative AMOUNT and a credit as No with a positive one, so
 * the AMOUNTs of a balanced voucher add up to zero.
 */

export const TALLY_LEDGERS = {
  purchase: 'Software Subscription',
  cgst: 'Input CGST',
  sgst: 'Input SGST',
  igst: 'Input IGST',
} as const;

export type TallyDocument = Pick<
  TaxDocument,
  | 'kind'
  | 'number'
  | 'issuedAt'
  | 'invoiceNumber'
  | 'customerGstin'
  | 'taxablePaise'
  | 'cgstPaise'
  | 'sgstPaise'
  | 'igstPaise'
  | 'untaxedPaise'
  | 'totalPaise'
>;

export interface TallyBooks {
  /** The customer's company as named in Tally (SVCURRENTCOMPANY). */
  company: string;
  supplier: { name: string; gstin: string };
}

// XML 1.0 has no place for these, escaped or not
// eslint-disable-next-line no-control-regex -- these are the characters it removes
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export const xmlText = (value: string) =>
  value.replace(NOT_XML, '').replace(/[&<>"']/g, (character) => ENTITIES[character]!);

/** Tally's dates are YYYYMMDD, here the day in India, as every document of the portal dates it. */
export function tallyDate(instant: Date) {
  const [day, month, year] = customerDate(instant).split('/');
  return `${year}${month}${day}`;
}

const element = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

interface Entry {
  ledger: string;
  /** Positive for a debit, negative for a credit, in paise. */
  debitPaise: number;
  party?: { bill: string; type: 'New Ref' | 'Agst Ref' };
}

function ledgerEntry({ ledger, debitPaise, party }: Entry): string {
  // Tally's sign: a debit is "deemed positive" and carries a negative amount
  const amount = rupees(-debitPaise);
  const lines = [
    element('LEDGERNAME', ledger),
    element('ISDEEMEDPOSITIVE', debitPaise > 0 ? 'Yes' : 'No'),
    element('ISPARTYLEDGER', party ? 'Yes' : 'No'),
    element('AMOUNT', amount),
  ];
  if (party) {
    lines.push(
      `<BILLALLOCATIONS.LIST>${element('NAME', party.bill)}${element('BILLTYPE', party.type)}${element('AMOUNT', amount)}</BILLALLOCATIONS.LIST>`,
    );
  }
  return `<ALLLEDGERENTRIES.LIST>${lines.join('')}</ALLLEDGERENTRIES.LIST>`;
}

/** A document's entries as debits of a purchase; a debit note turns every sign round. */
function entriesOf(document: TallyDocument, supplier: string): Entry[] {
  const sign = document.kind === 'invoice' ? 1 : -1;
  const entries: Entry[] = [
    {
      ledger: supplier,
      debitPaise: -sign * document.totalPaise,
      party:
        document.kind === 'invoice'
          ? { bill: document.number, type: 'New Ref' }
          : { bill: document.invoiceNumber, type: 'Agst Ref' },
    },
    {
      ledger: TALLY_LEDGERS.purchase,
      debitPaise: sign * (document.taxablePaise + document.untaxedPaise),
    },
    { ledger: TALLY_LEDGERS.cgst, debitPaise: sign * document.cgstPaise },
    { ledger: TALLY_LEDGERS.sgst, debitPaise: sign * document.sgstPaise },
    { ledger: TALLY_LEDGERS.igst, debitPaise: sign * document.igstPaise },
  ];
  const sum = entries.reduce((total, entry) => total + entry.debitPaise, 0);
  // the amounts are the issued document's own; one that does not add up must not reach the books
  if (sum !== 0) throw new Error(`${document.number} does not balance by ${sum} paise`);
  return entries.filter((entry) => entry.debitPaise !== 0);
}

function voucher(document: TallyDocument, books: TallyBooks): string {
  const type = document.kind === 'invoice' ? 'Purchase' : 'Debit Note';
  const date = tallyDate(document.issuedAt);
  const narration =
    document.kind === 'invoice'
      ? `Tax invoice ${document.number} from ${books.supplier.name}`
      : `Credit note ${document.number} against invoice ${document.invoiceNumber} from ${books.supplier.name}`;
  return [
    `<TALLYMESSAGE xmlns:UDF="TallyUDF">`,
    `<VOUCHER VCHTYPE="${xmlText(type)}" ACTION="Create" OBJVIEW="Accounting Voucher View">`,
    element('DATE', date),
    element('VOUCHERTYPENAME', type),
    element('VOUCHERNUMBER', document.number),
    element('REFERENCE', document.number),
    element('REFERENCEDATE', date),
    element('PARTYLEDGERNAME', books.supplier.name),
    element('PARTYGSTIN', books.supplier.gstin),
    element('NARRATION', narration),
    element('PERSISTEDVIEW', 'Accounting Voucher View'),
    ...entriesOf(document, books.supplier.name).map(ledgerEntry),
    `</VOUCHER>`,
    `</TALLYMESSAGE>`,
  ].join('\n');
}

/** The whole import file: one voucher for each document, in the order given. */
export function tallyVouchersXml(books: TallyBooks, documents: readonly TallyDocument[]): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<ENVELOPE>`,
    `<HEADER>${element('TALLYREQUEST', 'Import Data')}</HEADER>`,
    `<BODY>`,
    `<IMPORTDATA>`,
    `<REQUESTDESC>`,
    element('REPORTNAME', 'Vouchers'),
    `<STATICVARIABLES>${element('SVCURRENTCOMPANY', books.company)}</STATICVARIABLES>`,
    `</REQUESTDESC>`,
    `<REQUESTDATA>`,
    ...documents.map((document) => voucher(document, books)),
    `</REQUESTDATA>`,
    `</IMPORTDATA>`,
    `</BODY>`,
    `</ENVELOPE>`,
    '',
  ].join('\n');
}
