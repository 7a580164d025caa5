import { fileURLToPath } from 'node:url';
import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import { customerDate } from '@portal/contract';
import type { DocumentContent, Row } from './document-content';

// the standard PDF fonts cannot be embedded and have no rupee sign: these ship with the code
const REGULAR = fileURLToPath(new URL('./fonts/DejaVuSans.ttf', import.meta.url));
const BOLD = fileURLToPath(new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url));

const MARGIN = 50;
const WIDTH = 495;
const LABEL_WIDTH = 330;
const AMOUNT_X = MARGIN + 345;
const AMOUNT_WIDTH = 150;

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/** A rule across the page: decoration, so screen readers skip it. */
function rule(doc: Doc, gap: number) {
  doc.markContent('Artifact', { type: 'Layout' });
  doc
    .moveTo(MARGIN, doc.y + gap)
    .lineTo(MARGIN + WIDTH, doc.y + gap)
    .stroke();
  doc.endMarkedContent();
}

/** One table row: the label and its amount on one line, each a cell of the row. */
function tableRow(doc: Doc, table: Struct, [label, value]: Row, cell: 'TH' | 'TD') {
  const row = doc.struct('TR');
  table.add(row);
  const y = doc.y;
  row.add(doc.struct(cell, {}, () => doc.text(label, MARGIN, y, { width: LABEL_WIDTH })));
  const below = doc.y;
  row.add(
    doc.struct(cell, {}, () =>
      doc.text(value, AMOUNT_X, y, { width: AMOUNT_WIDTH, align: 'right' }),
    ),
  );
  row.end();
  doc.y = Math.max(below, doc.y) + 2;
}

/** A heading and its lines, as a section of the document's structure. */
function section(doc: Doc, root: Struct, heading: string, lines: string[], size: number) {
  const sect = doc.struct('Sect');
  root.add(sect);
  sect.add(doc.struct('H2', {}, () => doc.font(BOLD).fontSize(size).text(heading)));
  doc.font(REGULAR).fontSize(9);
  // a paragraph a line: read as one, the lines would run into each other
  for (const line of lines) sect.add(doc.struct('P', {}, () => doc.text(line)));
  sect.end();
  doc.moveDown();
}

/** Who signs the document and when, for the line that says so on the page. */
export interface SignatureLine {
  by: string;
  at: Date;
}

/**
 * A tax invoice or credit note as an accessible PDF: tagged (headings, sections, a table of
 * amounts; rules marked as decoration), its fonts embedded, its title shown and its language
 * set, so that a screen reader and an archive read it as the printed page reads. With a
 * signature it says who signed it and when; the signature itself is added to the finished file.
 */
export function renderDocumentPdf(
  content: DocumentContent,
  signature?: SignatureLine,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: content.info,
    font: REGULAR,
    tagged: true,
    lang: 'en-IN',
    displayTitle: true,
    pdfVersion: '1.7',
  });
  const pdf = buffer(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);

  root.add(
    doc.struct('H1', {}, () =>
      doc.font(BOLD).fontSize(18).text(content.title, { align: 'center' }),
    ),
  );
  doc.moveDown(0.8);
  section(doc, root, content.supplier.heading, content.supplier.lines, 11);
  for (const block of content.blocks) section(doc, root, block.heading, block.lines, 10);

  const table = doc.struct('Table');
  root.add(table);
  doc.font(BOLD).fontSize(10);
  tableRow(doc, table, content.table.head, 'TH');
  rule(doc, 1);
  doc.moveDown(0.6);
  doc.font(REGULAR).fontSize(9);
  for (const row of content.table.rows) tableRow(doc, table, row, 'TD');
  rule(doc, 2);
  doc.moveDown(0.6);
  doc.font(BOLD).fontSize(11);
  tableRow(doc, table, content.table.total, 'TD');
  table.end();
  doc.moveDown();

  root.add(
    doc.struct('P', {}, () =>
      doc.font(REGULAR).fontSize(9).text(content.words, MARGIN, doc.y, { width: WIDTH }),
    ),
  );
  if (signature) {
    doc.moveDown();
    root.add(
      doc.struct('P', {}, () =>
        doc
          .font(BOLD)
          .fontSize(9)
          .text(`Digitally signed by ${signature.by} on ${customerDate(signature.at)}`),
      ),
    );
  }
  root.end();
  doc.end();
  return pdf;
}
