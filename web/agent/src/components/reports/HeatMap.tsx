/**
 * Busiest hours: chats started per local weekday (rows, Monday first) and
 * hour (columns), shaded from none to the busiest hour. It is a real table:
 * every cell says its count and, on hover, its weekday, hour and count.
 */
import { t, tn } from '../../i18n';
import { count, heatLevel, hourLabel, weekday } from '../../reports/model';

export function HeatMap({ grid, max, timezone }: { grid: number[][]; max: number; timezone: string }) {
  return (
    <table className="heatmap">
      <caption className="sr-only">{t('pages.reports.heatCaption', { zone: timezone })}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">{t('pages.reports.weekday')}</span>
          </th>
          {Array.from({ length: 24 }, (_, h) => (
            // Every third hour is written out; the others are there for screen readers only (no empty header cell).
            <th scope="col" key={h} aria-label={hourLabel(h)}>
              {h % 3 === 0 ? String(h).padStart(2, '0') : <span className="sr-only">{hourLabel(h)}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {grid.map((row, d) => (
          <tr key={d}>
            <th scope="row">{weekday(d, 'short')}</th>
            {row.map((n, h) => (
              <td
                key={h}
                className={`heat heat-${heatLevel(n, max)}`}
                title={tn('pages.reports.heatCell', n, { day: weekday(d, 'long'), from: hourLabel(h), to: hourLabel((h + 1) % 24) })}
              >
                {n > 0 ? count(n) : ''}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function HeatLegend({ max }: { max: number }) {
  return (
    <p className="heat-legend small muted" aria-hidden="true">
      <span>{t('pages.reports.fewer')}</span>
      {[1, 2, 3, 4, 5].map((l) => (
        <span key={l} className={`heat heat-swatch heat-${l}`} />
      ))}
      <span>{tn('pages.reports.more', max)}</span>
    </p>
  );
}
