import { useId, useState } from 'react';
import { Download, Loader2 } from 'lucide-react';
import { useForm, useWatch, type FieldErrors, type ResolverResult } from 'react-hook-form';
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

interface ExportForm {
  kind: ExportKind;
  /** DD/MM/YYYY, as the customer types a date. */
  from: string;
  to: string;
  financialYear: string;
}

/** This financial year so far; for the PDFs, the whole of it. */
const startingValues = (): ExportForm => ({
  kind: 'orders',
  from: customerDateFromIso(financialYearRange(financialYearOf(todayIso()))!.from),
  to: customerDate(new Date()),
  financialYear: financialYearOf(todayIso()),
});

const problem = (message: string | undefined) => ({ type: 'validation', message });

/** The request the form stands for, or what is wrong with each field. */
function checkExport({
  kind,
  from,
  to,
  financialYear,
}: ExportForm): ResolverResult<ExportForm, ExportLinkRequest> {
  if (kind === 'invoice-pdfs') {
    const parsed = ExportLinkRequestSchema.safeParse({ kind, financialYear });
    return parsed.success
      ? { values: parsed.data, errors: {} }
      : { values: {}, errors: { financialYear: problem(parsed.error.issues[0]?.message) } };
  }
  const range = { from: isoFromCustomerDate(from), to: isoFromCustomerDate(to) };
  if (!range.from || !range.to) {
    const errors: FieldErrors<ExportForm> = {};
    if (!range.from) errors.from = problem(DATE_MESSAGE);
    if (!range.to) errors.to = problem(DATE_MESSAGE);
    return { values: {}, errors };
  }
  const parsed = ExportLinkRequestSchema.safeParse({ kind, range });
  if (parsed.success) return { values: parsed.data, errors: {} };
  // both dates are real ones here: what is left is the end's place against the start
  return {
    values: {},
    errors: { to: problem(`The end date ${parsed.error.issues[0]?.message}`) },
  };
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
  const [defaultValues] = useState(startingValues);
  const {
    register,
    handleSubmit,
    clearErrors,
    control,
    formState: { errors },
  } = useForm({
    defaultValues,
    resolver: checkExport,
    // a message stays until the next try, or another kind; the focus stays on Download
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const kind = useWatch({ control, name: 'kind' });
  const [started, setStarted] = useState<string | null>(null);
  const createLink = useCreateExportLink();
  const wholeYear = kind === 'invoice-pdfs';

  const download = handleSubmit((request) =>
    createLink.mutate(request, {
      onSuccess: ({ url, fileName }) => {
        startDownload(url, fileName);
        setStarted(fileName);
      },
    }),
  );

  return (
    <div>
      <PageTitle>Exports</PageTitle>
      <Card>
        <form
          onSubmit={(event) => {
            setStarted(null);
            void download(event);
          }}
          noValidate
          className="space-y-5 p-5 max-md:p-4"
        >
          <div className="space-y-1">
            <label htmlFor={`${id}-kind`} className="block text-sm font-medium text-slate-700">
              What to export
            </label>
            <select
              id={`${id}-kind`}
              aria-describedby={`${id}-kind-description`}
              {...register('kind', {
                onChange: () => {
                  clearErrors();
                  setStarted(null);
                },
              })}
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
                {...register('financialYear')}
                className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 max-md:h-11"
              >
                {financialYears().map((year) => (
                  <option key={year} value={year}>
                    {year} (1 April to 31 March)
                  </option>
                ))}
              </select>
              {errors.financialYear && (
                <p className="text-sm text-red-700">{errors.financialYear.message}</p>
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
                  error={errors.from?.message}
                  className="max-md:h-11"
                  {...register('from')}
                />
                <Field
                  label="To"
                  inputMode="numeric"
                  placeholder="DD/MM/YYYY"
                  autoComplete="off"
                  error={errors.to?.message}
                  className="max-md:h-11"
                  {...register('to')}
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
