/** A description and its amount ('' where the line has none). */
export type Row = [label: string, amount: string];

/** A heading and the plain lines under it. */
export interface Block {
  heading: string;
  lines: string[];
}

/**
 * Everything a tax invoice or credit note says, worded, in reading order: fixed when the
 * document is numbered, and kept with it until its PDF is drawn from it.
 */
export interface DocumentContent {
  /** The PDF's own title and author, shown by a viewer in its title bar. */
  info: { Title: string; Author: string };
  title: string;
  supplier: Block;
  blocks: Block[];
  table: { head: Row; rows: Row[]; total: Row };
  words: string;
}
