/**
 * One report on the Reports page: a titled card with its chart or, toggled,
 * the same figures as a table; a CSV download of the figures; and, instead
 * of the chart, an empty state or the error (with what to do) when there is
 * nothing to draw.
 */
import { useState, type ReactNode } from 'react';
import { t } from '../../i18n';

interface Props {
  id: string;
  title: string;
  note?: ReactNode;
  /** The figures as CSV (built on click) and the file's name. */
  csv: (() => string) | null;
  csvName: string;
  /** Shown instead of chart and table: why there is nothing and what to do. */
  empty: string | null;
  error: string | null;
  onRetry: () => void;
  chart: ReactNode;
  table: ReactNode;
  /** false: the content is a table already (no toggle). */
  toggle?: boolean;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ReportSection({ id, title, note, csv, csvName, empty, error, onRetry, chart, table, toggle = true }: Props) {
  const [asTable, setAsTable] = useState(false);
  const ready = !error && !empty;
  return (
    <section className="card report" aria-labelledby={`${id}-title`}>
      <div className="report-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="report-tools">
          {ready && toggle && (
            <button type="button" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
              {asTable ? t('pages.reports.showChart') : t('pages.reports.showTable')}
            </button>
          )}
          {ready && csv && (
            <button type="button" onClick={() => download(csvName, csv())} aria-label={t('pages.reports.downloadOf', { title })}>
              {t('pages.reports.download')}
            </button>
          )}
        </div>
      </div>
      {note && <p className="muted small report-note">{note}</p>}
      {error ? (
        <div className="report-empty" role="alert">
          <p className="error">{error}</p>
          <button type="button" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : empty ? (
        <p className="report-empty muted">{empty}</p>
      ) : asTable || !toggle ? (
        <div className="table-wrap report-table">{table}</div>
      ) : (
        chart
      )}
    </section>
  );
}
