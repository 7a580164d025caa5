/** One table: each figure beside its budget and a mark, in the order measured. */

/**
 * pass/fail: against a budget; info: no budget of its own (peers, ceilings, inputs of ratios);
 * error: the measurement could not be made.
 */
export type Mark = 'pass' | 'FAIL' | 'info' | 'ERROR';

export interface Row {
  section: string;
  name: string;
  shown: string;
  budget: string;
  mark: Mark;
}

export interface Limit {
  max?: number;
  min?: number;
}

const format = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export class Report {
  readonly rows: Row[] = [];

  constructor(private section = '') {}

  /** Rows added from now on belong to `section`. */
  startSection(section: string) {
    this.section = section;
  }

  /** `note` follows the figure, e.g. how many requests it is the median of. */
  number(name: string, value: number, unit: string, digits: number, limit?: Limit, note = '') {
    if (!Number.isFinite(value)) {
      this.error(name, `not a number (${value})`);
      return;
    }
    const within =
      (limit?.max === undefined || value <= limit.max) &&
      (limit?.min === undefined || value >= limit.min);
    const bound = (op: string, n: number) => `${op} ${format(n, digits)}${unit ? ` ${unit}` : ''}`;
    const budget = [
      limit?.min !== undefined ? bound('≥', limit.min) : '',
      limit?.max !== undefined ? bound('≤', limit.max) : '',
    ]
      .filter(Boolean)
      .join(', ');
    this.rows.push({
      section: this.section,
      name,
      shown: `${format(value, digits)}${unit ? ` ${unit}` : ''}${note ? ` (${note})` : ''}`,
      budget,
      mark: limit ? (within ? 'pass' : 'FAIL') : 'info',
    });
  }

  text(name: string, value: string, budget: string, within: boolean) {
    this.rows.push({
      section: this.section,
      name,
      shown: value,
      budget,
      mark: within ? 'pass' : 'FAIL',
    });
  }

  error(name: string, reason: string) {
    this.rows.push({ section: this.section, name, shown: reason, budget: '', mark: 'ERROR' });
  }

  /** Runs one measurement; a failure becomes an ERROR row instead of ending the run. */
  async attempt(name: string, measure: () => Promise<void>) {
    try {
      await measure();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.error(name, message.replace(/\s+/g, ' ').slice(0, 240));
    }
  }

  /** A Markdown table, readable in a terminal and pasted as it is into README.md. */
  render(): string {
    const head = ['measurement', 'figure', 'budget', 'mark'];
    const cells: string[][] = [];
    this.rows.forEach((r, i) => {
      // each section opens with a row of its own
      if (r.section !== this.rows[i - 1]?.section) cells.push([`**${r.section}**`, '', '', '']);
      cells.push([r.name, r.shown, r.budget, r.mark]);
    });
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
  }

  count(mark: Mark) {
    return this.rows.filter((r) => r.mark === mark).length;
  }
}

export const count = (n: number) => n.toLocaleString('en-US');
/** 10k, 1M: how the issue names the sizes. */
export const size = (n: number) =>
  n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n);
