/**
 * Working hours as the admin screen writes and reads them (pure): a day's
 * ranges as "09:00-13:00, 14:00-18:00" (empty = closed), and sentences such
 * as "Open now · closes Mon 5 Jan, 17:00 (Europe/Berlin)".
 */
import type { HoursStatusDto, TimeRange, Weekday } from '../../../protocol/routing';

export const WEEKDAYS: Array<[Weekday, string]> = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

export function rangesText(ranges: TimeRange[] | undefined): string {
  return (ranges ?? []).map(([a, b]) => `${a}-${b}`).join(', ');
}

/** Text back into ranges; the server checks the times and says in words what is wrong. */
export function parseRanges(text: string): TimeRange[] {
  return text
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [a = '', b = ''] = r.split('-').map((t) => t.trim());
      return [a, b];
    });
}

/** An instant as the hours' zone reads it: "Tue 6 Jan, 09:00". */
export function instantText(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
}

export function statusText(s: HoursStatusDto, always: boolean): string {
  if (always) return 'Open now · always open (no working hours set)';
  if (s.changes_at === null) return s.open ? 'Open now · no closing time ahead' : 'Closed · no opening time ahead';
  const at = `${instantText(s.changes_at, s.timezone)} (${s.timezone})`;
  return s.open ? `Open now · closes ${at}` : `Closed until ${at}`;
}

/** "Mon 5 Jan" for a preview's YYYY-MM-DD. */
export function dayText(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(Date.UTC(y, m - 1, d));
}
