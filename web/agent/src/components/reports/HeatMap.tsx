/**
 * Busiest hours: chats started per local weekday (rows, Monday first) and
 * hour (columns), shaded from none to the busiest hour. It is a real table:
 * every cell says its count and, on hover, its weekday, hour and count.
 */
import { count, heatLevel, hourLabel, WEEKDAYS } from '../../reports/model';

export function HeatMap({ grid, max, timezone }: { grid: number[][]; max: number; timezone: string }) {
  return (
    <table className="heatmap">
      <caption className="sr-only">Chats started per weekday and hour, {timezone}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">Weekday</span>
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
            <th scope="row">{WEEKDAYS[d]?.slice(0, 3)}</th>
            {row.map((n, h) => (
              <td key={h} className={`heat heat-${heatLevel(n, max)}`} title={`${WEEKDAYS[d]} ${hourLabel(h)}–${hourLabel((h + 1) % 24)}: ${count(n)} chats`}>
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
      <span>fewer</span>
      {[1, 2, 3, 4, 5].map((l) => (
        <span key={l} className={`heat heat-swatch heat-${l}`} />
      ))}
      <span>more (busiest hour: {count(max)} chats)</span>
    </p>
  );
}
