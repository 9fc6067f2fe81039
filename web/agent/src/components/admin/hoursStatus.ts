/**
 * Working hours' state in the agent's language: "Open now · closes Tue 6 Jan,
 * 17:00 (Europe/Berlin)" and a preview day's "Mon 5 Jan". Times are read in
 * the hours' own zone; English keeps the day-month order the page always had.
 */
import type { HoursStatusDto } from '../../../../../protocol/routing';
import { language, t } from '../../i18n';

const locale = (): string => (language() === 'en' ? 'en-GB' : language());

/** An instant as the hours' zone reads it: "Tue 6 Jan, 09:00". */
function instantText(ms: number, timeZone: string): string {
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
  if (always) return t('admin.workingHours.alwaysOpenNow');
  if (s.changes_at === null) return s.open ? t('admin.workingHours.openNoClosing') : t('admin.workingHours.closedNoOpening');
  const vars = { at: instantText(s.changes_at, s.timezone), zone: s.timezone };
  return s.open ? t('admin.workingHours.openCloses', vars) : t('admin.workingHours.closedUntil', vars);
}

/** "Mon 5 Jan" for a preview's YYYY-MM-DD. */
export function dayText(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(), { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(Date.UTC(y, m - 1, d));
}
