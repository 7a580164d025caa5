import { buffer } from 'node:stream/consumers';
import QRCode from 'qrcode';
import { customerDate } from '@portal/contract';
import type { DocumentContent, Row } from './document-content';
import { BOLD, REGULAR, documentWithFonts } from './pdf-fonts';

const MARGIN = 50;
const WIDTH = 495;
const LABEL_WIDTH = 330;
const AMOUNT_X = MARGIN + 345;
const AMOUNT_WIDTH = 150;
// ~46 mm: a JWS of ~1,000 characters draws modules of ~1 pt, which a phone reads off paper
const QR_SIZE = 130;
const QR_GAP = 15;

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

/** What the IRP gave a registered document, printed on it (decision 083). */
export interface DocumentRegistration {
  irn: string;
  ackNo: string;
  ackDate: Date;
  signedQrCode: string;
}

/**
 * The QR code of the IRP's SignedQRCode, `size` points square at (x, y) with a margin of one
 * module: each row's runs of dark modules as squares of one path, filled at once. Drawn, not
 * an image: it stays sharp at any zoom, and a PNG's encoding and decoding took most of a
 * registered document's drawing (decision 085).
 */
function drawQrCode(doc: Doc, signedQrCode: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(signedQrCode, { errorCorrectionLevel: 'M' });
  const unit = size / (modules.size + 2);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const start = col;
      while (col + 1 < modules.size && modules.get(row, col + 1)) col++;
      doc.rect(x + (start + 1) * unit, y + (row + 1) * unit, (col - start + 1) * unit, unit);
    }
  }
  doc.fill('black');
}

/** The e-invoice registration: its lines at the left, the QR code of its signed QR at the right. */
function registrationSection(doc: Doc, root: Struct, registration: DocumentRegistration) {
  const top = doc.y;
  const width = WIDTH - QR_SIZE - QR_GAP;
  const sect = doc.struct('Sect');
  root.add(sect);
  sect.add(
    doc.struct('H2', {}, () =>
      doc.font(BOLD).fontSize(10).text('e-Invoice', MARGIN, top, { width }),
    ),
  );
  const irn = `IRN: ${registration.irn}`;
  doc.font(REGULAR).fontSize(9);
  // the IRN is quoted whole: smaller type, to fit the line, rather than a break inside it (a
  // point to spare, for the wrapper's rounding)
  const irnSize = Math.min(9, (9 * (width - 1)) / doc.widthOfString(irn));
  sect.add(doc.struct('P', {}, () => doc.fontSize(irnSize).text(irn, { width })));
  doc.fontSize(9);
  for (const line of [
    `Ack No: ${registration.ackNo}`,
    `Ack Date: ${customerDate(registration.ackDate)}`,
  ])
    sect.add(doc.struct('P', {}, () => doc.text(line, { width })));
  const below = doc.y;
  sect.add(
    doc.struct('Figure', { alt: 'QR code of the e-invoice, signed by the IRP' }, () =>
      drawQrCode(doc, registration.signedQrCode, MARGIN + WIDTH - QR_SIZE, top, QR_SIZE),
    ),
  );
  sect.end();
  doc.y = Math.max(below, top + QR_SIZE);
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
 * With its registration it prints the IRN, acknowledgement and QR code below its number.
 */
export async function renderDocumentPdf(
  content: DocumentContent,
  signature?: SignatureLine,
  registration?: DocumentRegistration,
): Promise<Buffer> {
  const doc = documentWithFonts({
    size: 'A4',
    margin: MARGIN,
    info: content.info,
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
  content.blocks.forEach((block, i) => {
    section(doc, root, block.heading, block.lines, 10);
    // the first block numbers and dates the document: the registration belongs with it
    if (i === 0 && registration) registrationSection(doc, root, registration);
  });

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
