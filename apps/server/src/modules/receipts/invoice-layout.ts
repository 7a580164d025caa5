import type { InvoiceContent } from './invoice-pdf';

/** The page the invoice is printed on. */
export const INVOICE_PAGE = { size: 'A4', margin: 50 } as const;

const left = INVOICE_PAGE.margin;
const width = 495;

/**
 * Places the invoice's words on the page: fonts, sizes, positions, rules and colour. Every word
 * and amount comes worded from `invoiceContent`; nothing here chooses what the document says.
 */
export function layOutInvoice(doc: PDFKit.PDFDocument, content: InvoiceContent): void {
  doc.font('Helvetica-Bold').fontSize(18).text(content.title, { align: 'center' });
  doc.moveDown(0.8);
  doc.fontSize(11).text(content.supplier.heading);
  doc.font('Helvetica').fontSize(9);
  for (const line of content.supplier.lines) doc.text(line);
  doc.moveDown();

  for (const block of content.blocks) {
    doc.font('Helvetica-Bold').fontSize(10).text(block.heading);
    doc.font('Helvetica').fontSize(9);
    for (const line of block.lines) doc.text(line);
    doc.moveDown();
  }

  const { head, rows, total } = content.table;
  doc.font('Helvetica-Bold').fontSize(10);
  let y = doc.y;
  doc.text(head[0], left, y, { width: 340 });
  doc.text(head[1], left + 345, y, { width: 150, align: 'right' });
  doc
    .moveTo(left, doc.y + 3)
    .lineTo(left + width, doc.y + 3)
    .stroke();
  doc.moveDown(0.6);
  doc.font('Helvetica').fontSize(9);
  for (const [label, value] of rows) {
    y = doc.y;
    doc.text(label, left, y, { width: 340 });
    const after = doc.y;
    if (value) doc.text(value, left + 345, y, { width: 150, align: 'right' });
    doc.y = Math.max(after, doc.y) + 2;
  }
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .stroke();
  doc.moveDown(0.6);
  doc.font('Helvetica-Bold').fontSize(11);
  y = doc.y;
  doc.text(total[0], left, y, { width: 340 });
  doc.text(total[1], left + 345, y, { width: 150, align: 'right' });
  doc.moveDown();
  doc.font('Helvetica').fontSize(9);
  doc.text(content.words, left, doc.y, { width });
  doc.moveDown(2);
  doc.fontSize(8).fillColor('#555555').text(content.footnote, left, doc.y, {
    width,
    align: 'center',
  });
}
