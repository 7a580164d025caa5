import { useId, useState, type FormEvent } from 'react';
import { Download, Loader2 } from 'lucide-react';
import {
  EXPORT_KINDS,
  EXPORT_KIND_LABELS,
  EXPORT_MAX_DAYS,
  EXPORT_YEARS,
  ExportLinkRequestSchema,
  customerDate,
  customerDateFromIso,
  financialYearOf,
  financialYearRange,
  isoFromCustomerDate,
  type ExportKind,
  type ExportLinkRequest,
} from '@portal/contract';
import { errorMessage } from '@/lib/http';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { Field } from '@/ui/field';
import { PageTitle } from '@/ui/page-title';
import { useCreateExportLink } from '../api/create-export-link';

const DESCRIPTIONS: Record<ExportKind, string> = {
  orders: 'Every order with its plan, status and amounts.',
  invoices: 'Tax invoices and credit notes with taxable value, CGST, SGST and IGST.',
  activity: 'Everything that happened on your account.',
  consents: 'Bank consents with partner, status, purpose and dates.',
  tally:
    'Purchase vouchers (credit notes as Debit Notes) with the Input CGST, SGST and IGST ledgers, to import into TallyPrime.',
  'invoice-pdfs': 'Every invoice and credit note PDF of the year in one ZIP file.',
};

const DATE_MESSAGE = 'Enter a date as DD/MM/YYYY';

/** 15/08/2026 → 2026-08-15 (India's calendar), the financial year that day is in. */
const todayIso = () => isoFromCustomerDate(customerDate(new Date()))!;

/** The financial years from GST's first to the current one, newest first. */
function financialYears(): string[] {
  const current = Number(financialYearOf(todayIso()).slice(0, 4));
  const years: string[] = [];
  for (let start = current; start >= EXPORT_YEARS.min; start -= 1) {
    years.push(financialYearOf(`${start}-04-01`));
  }
  return years;
}

type FieldErrors = Partial<Record<'from' | 'to' | 'financialYear', string>>;

/** The request the form stands for, or what is wrong with each field. */
function requestOf(
  kind: ExportKind,
  from: string,
  to: string,
  financialYear: string,
): { request: ExportLinkRequest } | { errors: FieldErrors } {
  if (kind === 'invoice-pdfs') {
    const parsed = ExportLinkRequestSchema.safeParse({ kind, financialYear });
    return parsed.success
      ? { request: parsed.data }
      : { errors: { financialYear: parsed.error.issues[0]?.message } };
  }
  const range = { from: isoFromCustomerDate(from), to: isoFromCustomerDate(to) };
  if (!range.from || !range.to) {
    return {
      errors: {
        from: range.from ? undefined : DATE_MESSAGE,
        to: range.to ? undefined : DATE_MESSAGE,
      },
    };
  }
  const parsed = ExportLinkRequestSchema.safeParse({ kind, range });
  if (parsed.success) return { request: parsed.data };
  // both dates are real ones here: what is left is the end's place against the start
  return { errors: { to: `The end date ${parsed.error.issues[0]?.message}` } };
}

/** Starts the browser's download of a signed link; the file streams to disk, not into the page. */
function startDownload(url: string, fileName: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Exports for the accountant: a list as CSV, the invoices for TallyPrime, a year's PDFs. */
export function ExportsScreen() {
  const id = useId();
  const [kind, setKind] = useState<ExportKind>('orders');
  const [from, setFrom] = useState(() =>
    customerDateFromIso(financialYearRange(financialYearOf(todayIso()))!.from),
  );
  const [to, setTo] = useState(() => customerDate(new Date()));
  const [financialYear, setFinancialYear] = useState(() => financialYearOf(todayIso()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [started, setStarted] = useState<string | null>(null);
  const createLink = useCreateExportLink();
  const wholeYear = kind === 'invoice-pdfs';

  function submit(event: FormEvent) {
    event.preventDefault();
    setStarted(null);
    const result = requestOf(kind, from, to, financialYear);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    createLink.mutate(result.request, {
      onSuccess: ({ url, fileName }) => {
        startDownload(url, fileName);
        setStarted(fileName);
      },
    });
  }

  return (
    <div>
      <PageTitle>Exports</PageTitle>
      <Card>
        <form onSubmit={submit} noValidate className="space-y-5 p-5 max-md:p-4">
          <div className="space-y-1">
            <label htmlFor={`${id}-kind`} className="block text-sm font-medium text-slate-700">
              What to export
            </label>
            <select
              id={`${id}-kind`}
              value={kind}
              aria-describedby={`${id}-kind-description`}
              onChange={(event) => {
                setKind(event.target.value as ExportKind);
                setErrors({});
                setStarted(null);
              }}
              className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 max-md:h-11 md:max-w-md"
            >
              {EXPORT_KINDS.map((value) => (
                <option key={value} value={value}>
                  {EXPORT_KIND_LABELS[value]}
                </option>
              ))}
            </select>
            <p id={`${id}-kind-description`} className="text-sm text-slate-600">
              {DESCRIPTIONS[kind]}
            </p>
          </div>

          {wholeYear ? (
            <div className="space-y-1 md:max-w-xs">
              <label htmlFor={`${id}-year`} className="block text-sm font-medium text-slate-700">
                Financial year
              </label>
              <select
                id={`${id}-year`}
                value={financialYear}
                onChange={(event) => setFinancialYear(event.target.value)}
                className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 max-md:h-11"
              >
                {financialYears().map((year) => (
                  <option key={year} value={year}>
                    {year} (1 April to 31 March)
                  </option>
                ))}
              </select>
              {errors.financialYear && (
                <p className="text-sm text-red-700">{errors.financialYear}</p>
              )}
            </div>
          ) : (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-700">
                Dates (at most {EXPORT_MAX_DAYS} days, both included)
              </legend>
              <div className="grid gap-4 sm:grid-cols-2 md:max-w-md">
                <Field
                  label="From"
                  inputMode="numeric"
                  placeholder="DD/MM/YYYY"
                  autoComplete="off"
                  value={from}
                  error={errors.from}
                  onChange={(event) => setFrom(event.target.value)}
                  className="max-md:h-11"
                />
                <Field
                  label="To"
                  inputMode="numeric"
                  placeholder="DD/MM/YYYY"
                  autoComplete="off"
                  value={to}
                  error={errors.to}
                  onChange={(event) => setTo(event.target.value)}
                  className="max-md:h-11"
                />
              </div>
            </fieldset>
          )}

          <div className="max-md:[&>button]:w-full">
            <Button type="submit" className="max-md:h-11" busy={createLink.isPending}>
              {createLink.isPending ? (
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              ) : (
                <Download className="h-4 w-4" aria-hidden="true" />
              )}
              {createLink.isPending ? 'Preparing download...' : 'Download'}
            </Button>
          </div>

          {createLink.isError && (
            <p role="alert" className="text-sm text-red-700">
              {errorMessage(
                createLink.error,
                'The export could not be prepared. Please try again.',
              )}
            </p>
          )}
          <p role="status" className="text-sm text-slate-700">
            {started ? `Your download of ${started} has started.` : ''}
          </p>
        </form>
      </Card>
    </div>
  );
}
