import fs from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it, vi } from 'vitest';
import { BOLD, REGULAR, documentWithFonts } from './pdf-fonts';
import { pdfLines, poppler } from '../../test/invoices';

/** A page of the two fonts, a line each; its creation date fixed, so equal words give equal files. */
function page(regular: string, bold: string): Promise<Buffer> {
  const doc = documentWithFonts({ info: { CreationDate: new Date('2026-06-01T10:00:00Z') } });
  const file = buffer(doc);
  doc.text(regular);
  doc.font(BOLD).text(bold);
  doc.font(REGULAR);
  doc.end();
  return file;
}

const embeddedFonts = async (pdf: Buffer) =>
  (await poppler('pdffonts', pdf))
    .trim()
    .split('\n')
    .slice(2)
    // name, then emb, sub and uni: each font embedded as a subset, with its text readable
    .map((font) => [
      font.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''),
      ...font.split(/\s+/).slice(-5, -2),
    ]);

describe('the shipped fonts, parsed once for every document', () => {
  // a page before the spy, so that the fonts are parsed in any order; first in the file, so that
  // mutation testing, which runs only the tests that reached a line, counts it for the parsing
  it('are read from their files once a process, never for a document', async () => {
    await page('Acme Traders', 'Invoice');
    // pdfkit reads a font's file with the fs module it requires, the one imported here
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      await page('Acme Traders', 'Invoice');
      const fontReads = reads.mock.calls.filter(([file]) => file === REGULAR || file === BOLD);
      expect(fontReads).toEqual([]);
    } finally {
      reads.mockRestore();
    }
  });

  it('embed in each document the subsets of both, which read back as written', async () => {
    const pdf = await page('Total ₹6,148.77', 'TAX INVOICE');
    expect(await pdfLines(pdf)).toEqual(['Total ₹6,148.77', 'TAX INVOICE']);
    expect(await embeddedFonts(pdf)).toEqual([
      ['DejaVuSans', 'yes', 'yes', 'yes'],
      ['DejaVuSans-Bold', 'yes', 'yes', 'yes'],
    ]);
  });

  it('give each document drawn at once its own words and glyphs', async () => {
    const words = [
      ['Acme Traders Pvt Ltd', 'Invoice'],
      ['Αθηνά Εμπορική', 'Τιμολόγιο'],
      ['Москва Трейдинг', 'Счёт'],
    ];
    const pdfs = await Promise.all(words.map(([regular, bold]) => page(regular!, bold!)));
    for (const [i, pdf] of pdfs.entries()) expect(await pdfLines(pdf)).toEqual(words[i]);
  });

  it('leave in a document no glyph another document used before it', async () => {
    const alone = await page('Acme Traders', 'Invoice');
    await page('Αθηνά Εμπορική Москва Трейдинг ÀÉÎÕÜ ₹', 'Τιμολόγιο Счёт');
    const after = await page('Acme Traders', 'Invoice');
    expect(after.length).toBe(alone.length);
    expect(after.equals(alone)).toBe(true);
  });
});
