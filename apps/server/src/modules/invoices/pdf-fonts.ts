import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

// the standard PDF fonts cannot be embedded and have no rupee sign: these ship with the code
export const REGULAR = fileURLToPath(new URL('./fonts/DejaVuSans.ttf', import.meta.url));
export const BOLD = fileURLToPath(new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url));

/** The parts of pdfkit's document that hold its fonts, which its types do not show. */
interface DocumentFonts {
  _font: { constructor: EmbeddedFont; font: unknown };
  _fontCount: number;
  _fontFamilies: Record<string, unknown>;
}
/** pdfkit's font of one document: the glyphs it used and their widths, over a parsed font file. */
type EmbeddedFont = new (doc: PDFKit.PDFDocument, font: unknown, id: string) => unknown;

// pdfkit parses a font file anew for each document, and decoding its tables again took more than
// half of a document's drawing (decision 086). Each file is parsed once, by pdfkit itself, when
// the first document is drawn: a process that draws none never reads them.
let parsed: { file: string; Embedded: EmbeddedFont; font: unknown }[] | undefined;
const parsedFonts = () =>
  (parsed ??= [REGULAR, BOLD].map((file) => {
    const { _font } = new PDFDocument({ font: file }) as unknown as DocumentFonts;
    return { file, Embedded: _font.constructor, font: _font.font };
  }));

/**
 * A PDF document whose fonts are the shipped ones, parsed once for the process: each document
 * still embeds its own subset. Drawing is synchronous, so documents drawn at once never share a
 * moment of the parsed font's state.
 */
export function documentWithFonts(
  options: Omit<PDFKit.PDFDocumentOptions, 'font'>,
): PDFKit.PDFDocument {
  // no default font: pdfkit would open its file
  const doc = new PDFDocument({ ...options, font: null as unknown as string });
  const fonts = doc as unknown as DocumentFonts;
  for (const { file, Embedded, font } of parsedFonts()) {
    fonts._fontFamilies[file] = new Embedded(doc, font, `F${++fonts._fontCount}`);
  }
  return doc.font(REGULAR);
}
