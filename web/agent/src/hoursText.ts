/**
 * Working hours as the admin screen writes and reads them (pure): a day's
 * ranges as "09:00-13:00, 14:00-18:00" (empty = closed). The sentences
 * about the hours (open now, closes at…) are components/admin/hoursStatus.ts.
 */
import type { TimeRange, Weekday } from '../../../protocol/routing';

/** The week's days in order (the English names are for code; screens name a day in the app's language). */
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
