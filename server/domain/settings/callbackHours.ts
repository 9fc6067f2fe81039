/**
 * When callbacks may be requested: `hours` maps mon…sun to ["HH:MM","HH:MM"]
 * ranges in the IANA `timezone`, start included and end excluded ("24:00"
 * ends at midnight); a day that is missing has no hours; `hours: null` means
 * always open. Pure: the caller passes the instant. Whether callbacks are
 * enabled or have balance left is not decided here.
 */
import type { CallbackSettings, Weekday } from './settingsRow.js';

export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const SHORT_DAY: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since midnight of "HH:MM" (00:00 … 24:00), or null when it is not such a time. */
export function minutesOf(hhmm: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return null;
  return h * 60 + min;
}

/** Whether the zone is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function formatterFor(zone: string): Intl.DateTimeFormat {
  const tz = isTimeZone(zone) ? zone : 'UTC';
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(tz, f);
  }
  return f;
}

/** Day of the week and minutes since midnight of an instant in a zone (an unknown zone reads as UTC). */
export function localTime(date: Date, zone: string): { day: Weekday; minutes: number } {
  const parts = formatterFor(zone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const hour = Number(get('hour')) % 24;
  return { day: SHORT_DAY[get('weekday')] ?? 'mon', minutes: hour * 60 + Number(get('minute')) };
}

export function isCallbackOpen(callback: Pick<CallbackSettings, 'timezone' | 'hours'>, date: Date): boolean {
  if (callback.hours === null) return true;
  const { day, minutes } = localTime(date, callback.timezone);
  const ranges = callback.hours[day] ?? [];
  return ranges.some(([start, end]) => {
    const s = minutesOf(start);
    const e = minutesOf(end);
    return s !== null && e !== null && minutes >= s && minutes < e;
  });
}
