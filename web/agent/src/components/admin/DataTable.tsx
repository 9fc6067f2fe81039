/**
 * The admin pages' tables and what stands around them: a scrolling table
 * with its caption and column heads (the last, unnamed on screen, for the
 * row's buttons), the Refresh row, and an action's outcome said above the
 * table (a row that went away cannot carry it).
 */
import type { ReactNode } from 'react';
import { t } from '../../i18n';
import { ErrorText } from './ErrorText';

export function DataTable({
  className,
  caption,
  captionHidden = false,
  columns,
  actions = false,
  children,
}: {
  className?: string;
  caption?: string;
  /** Said to screen readers only (the page's heading says it on screen). */
  captionHidden?: boolean;
  columns: string[];
  /** A last column of buttons. */
  actions?: boolean;
  /** The rows. */
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className={className}>
        {caption && <caption className={captionHidden ? 'sr-only' : undefined}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="sr-only">{t('admin.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The Refresh button's row; `children` stand before it. */
export function RefreshRow({ onRefresh, children }: { onRefresh: () => void; children?: ReactNode }) {
  return (
    <div className="row">
      {children}
      <button type="button" onClick={onRefresh}>
        {t('admin.refresh')}
      </button>
    </div>
  );
}

/** What the last action did (a status) or why it failed (an alert). */
export function Outcome({ error, result }: { error: string | null; result?: string | null }) {
  return (
    <>
      <ErrorText error={error} />
      {result && (
        <p role="status" className="saved">
          {result}
        </p>
      )}
    </>
  );
}
