import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvRow, rupees } from './csv';

describe('CSV encoding', () => {
  it('leaves plain text as it is and ends each record with CRLF', () => {
    expect(csvRow(['Plan', 'Completed', null])).toBe('Plan,Completed,\r\n');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes (RFC 4180)', () => {
    expect(csvCell('Mumbai, MH')).toBe('"Mumbai, MH"');
    expect(csvCell('the "Pro" plan')).toBe('"the ""Pro"" plan"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('puts an apostrophe before a cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x.test","y")')).toBe(
      `"'=HYPERLINK(""http://x.test"",""y"")"`,
    );
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes amounts in paise as rupees to the paisa, negative ones as numbers', () => {
    expect(csvCell({ paise: 922_377 })).toBe('9223.77');
    expect(csvCell({ paise: -5 })).toBe('-0.05');
    expect(rupees(0)).toBe('0.00');
    expect(rupees(-118_000)).toBe('-1180.00');
  });

  it('marks the file as UTF-8 with a byte-order mark', () => {
    expect(Buffer.from(CSV_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
