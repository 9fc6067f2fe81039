/**
 * Working hours as the admin screen writes and reads them (pure): a day's
 * ranges as "09:00-13:00, 14:00-18:00" (empty = closed), and sentences such
 * as "Open now · closes Mon 5 Jan, 17:00 (Europe/Berlin)".
 */
import type { HoursStatusDto, TimeRange, Weekday } from '../../../protocol/routing';
import { language, t } from './i18n';

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

/** English writes the day before the month ("Tue 6 Jan"), as the admin screens always did; the others as their language does. */
const locale = (): string => (language() === 'en' ? 'en-GB' : language());

/** An instant as the hours' zone reads it: "Tue 6 Jan, 09:00". */
export function instantText(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat(locale(), {
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
  if (always) return t('pages.hours.alwaysOpen');
  if (s.changes_at === null) return s.open ? t('pages.hours.openNoClosing') : t('pages.hours.closedNoOpening');
  const vars = { at: instantText(s.changes_at, s.timezone), zone: s.timezone };
  return s.open ? t('pages.hours.openUntil', vars) : t('pages.hours.closedUntil', vars);
}

/** "Mon 5 Jan" for a preview's YYYY-MM-DD. */
export function dayText(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(), { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(Date.UTC(y, m - 1, d));
}
