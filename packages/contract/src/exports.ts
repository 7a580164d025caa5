import { z } from 'zod';

/**
 * Exports for the accountant (decision 042): CSV of four lists, the invoices and credit notes as
 * TallyPrime import XML, and a financial year's invoice PDFs as one ZIP. The browser asks for a
 * short-lived signed link with its bearer token, then opens the link, so that the file streams
 * straight to the disk rather than through the page's memory.
 */
export const exportPaths = {
  link: '/api/exports/link',
  download: '/api/exports/:kind/:from/:to',
} as const;

export const CSV_EXPORT_KINDS = ['orders', 'invoices', 'activity', 'consents'] as const;
export type CsvExportKind = (typeof CSV_EXPORT_KINDS)[number];
export const EXPORT_KINDS = [...CSV_EXPORT_KINDS, 'tally', 'invoice-pdfs'] as const;
export const ExportKindSchema = z.enum(EXPORT_KINDS, {
  error: `must be one of ${EXPORT_KINDS.join(', ')}`,
});
export type ExportKind = z.infer<typeof ExportKindSchema>;

/** What each kind is called on the Exports screen. */
export const EXPORT_KIND_LABELS: Record<ExportKind, string> = {
  orders: 'Orders (CSV)',
  invoices: 'Invoices and credit notes (CSV)',
  activity: 'Activity (CSV)',
  consents: 'Consents (CSV)',
  tally: 'Invoices for TallyPrime (XML)',
  'invoice-pdfs': 'Invoice PDFs of a financial year (ZIP)',
};

/** A range is at most a leap year long: an accountant's period is a financial year at most. */
export const EXPORT_MAX_DAYS = 366;
export const EXPORT_YEARS = { min: 2017, max: 2100 } as const;

export const EXPORT_DATE_MESSAGE = `must be a date from ${EXPORT_YEARS.min} to ${EXPORT_YEARS.max} as YYYY-MM-DD`;
export const EXPORT_ORDER_MESSAGE = 'must be on or after the start date';
export const EXPORT_SPAN_MESSAGE = `must be at most ${EXPORT_MAX_DAYS} days after the start date`;
export const FINANCIAL_YEAR_MESSAGE = 'must be a financial year such as 2026-27';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a real calendar date written YYYY-MM-DD, or null. */
export function isoDateDay(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < EXPORT_YEARS.min || year > EXPORT_YEARS.max) return null;
  const instant = Date.UTC(year, month - 1, day);
  const back = new Date(instant);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return instant / DAY_MS;
}

const isoDate = () =>
  z
    .string({ error: EXPORT_DATE_MESSAGE })
    .regex(ISO_DATE, EXPORT_DATE_MESSAGE)
    .refine((value) => isoDateDay(value) !== null, { message: EXPORT_DATE_MESSAGE });

/** A range of whole days, both ends included, in the customer's (Indian) calendar. */
export const ExportRangeSchema = z
  .object({ from: isoDate(), to: isoDate() })
  .superRefine(({ from, to }, context) => {
    const start = isoDateDay(from)!;
    const end = isoDateDay(to)!;
    if (end < start) {
      context.addIssue({ code: 'custom', path: ['to'], message: EXPORT_ORDER_MESSAGE });
    } else if (end - start >= EXPORT_MAX_DAYS) {
      context.addIssue({ code: 'custom', path: ['to'], message: EXPORT_SPAN_MESSAGE });
    }
  });
export type ExportRange = z.infer<typeof ExportRangeSchema>;

/** 2026-27 → 1 April 2026 to 31 March 2027, the Indian financial year. */
export function financialYearRange(financialYear: string): ExportRange | null {
  const match = /^(\d{4})-(\d{2})$/.exec(financialYear);
  if (!match) return null;
  const start = Number(match[1]);
  if ((start + 1) % 100 !== Number(match[2])) return null;
  const range = { from: `${start}-04-01`, to: `${start + 1}-03-31` };
  return isoDateDay(range.from) !== null && isoDateDay(range.to) !== null ? range : null;
}

/** The financial year a date (YYYY-MM-DD) falls in: 2027-03-31 → 2026-27. */
export function financialYearOf(isoDay: string): string {
  const year = Number(isoDay.slice(0, 4));
  const start = Number(isoDay.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * `POST /api/exports/link`: a range for the lists and the Tally file, a financial year for the
 * ZIP of invoice PDFs.
 */
export const ExportLinkRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum([...CSV_EXPORT_KINDS, 'tally']), range: ExportRangeSchema }),
  z.object({
    kind: z.literal('invoice-pdfs'),
    financialYear: z
      .string({ error: FINANCIAL_YEAR_MESSAGE })
      .regex(/^\d{4}-\d{2}$/, FINANCIAL_YEAR_MESSAGE)
      .refine((value) => financialYearRange(value) !== null, { message: FINANCIAL_YEAR_MESSAGE }),
  }),
]);
export type ExportLinkRequest = z.infer<typeof ExportLinkRequestSchema>;

export const ExportLinkResponseSchema = z.object({
  success: z.literal(true),
  /** A short-lived signed link, bound to the customer, the kind and the range. */
  url: z.string(),
  fileName: z.string(),
});
export type ExportLinkResponse = z.infer<typeof ExportLinkResponseSchema>;

/** The download's path parameters: the signature covers them, so the link cannot be widened. */
export const ExportDownloadParamsSchema = z
  .object({ kind: ExportKindSchema, from: isoDate(), to: isoDate() })
  .superRefine(({ from, to }, context) => {
    const result = ExportRangeSchema.safeParse({ from, to });
    for (const issue of result.error?.issues ?? []) {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });

export const exportDownloadPath = (kind: ExportKind, { from, to }: ExportRange) =>
  `/api/exports/${kind}/${from}/${to}`;

const EXTENSIONS: Record<ExportKind, string> = {
  orders: 'csv',
  invoices: 'csv',
  activity: 'csv',
  consents: 'csv',
  tally: 'xml',
  'invoice-pdfs': 'zip',
};

/** orders-2026-04-01-to-2027-03-31.csv; invoice-pdfs-2026-27.zip for a financial year. */
export function exportFileName(kind: ExportKind, range: ExportRange): string {
  const year = financialYearOf(range.from);
  const wholeYear = financialYearRange(year);
  const span =
    kind === 'invoice-pdfs' && wholeYear?.from === range.from && wholeYear.to === range.to
      ? year
      : `${range.from}-to-${range.to}`;
  return `${kind}-${span}.${EXTENSIONS[kind]}`;
}

/** 31/03/2027 (how the screen asks for a date, en-IN) → 2027-03-31, or null when not a date. */
export function isoFromCustomerDate(value: string): string | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(value);
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return isoDateDay(iso) === null ? null : iso;
}

/** 2027-03-31 → 31/03/2027. */
export const customerDateFromIso = (iso: string) =>
  `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
