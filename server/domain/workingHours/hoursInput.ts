/**
 * Input rules of working hours for chat (PUT /api/v1/working-hours and
 * /departments/:id/working-hours): the time zone and the weekly ranges follow
 * the callback hours' rules (settings/callbackHours.ts: the same "HH:MM"
 * times and IANA zones), each refusal a 400 saying in words what is wrong and
 * nothing stored. Exceptions: at most MAX_EXCEPTIONS, one per date.
 */
import { invalid } from '../../errors/AppError.js';
import { isTimeZone, minutesOf, WEEKDAYS } from '../settings/callbackHours.js';
import type { Weekday } from '../settings/settingsRow.js';
import type { HoursException, Range, WorkingHours } from './hours.js';

export interface HoursInput {
  timezone: string;
  weekly: Record<string, string[][]>;
  exceptions?: Array<{ date: string; ranges: string[][]; note?: string | null }>;
}

export const MAX_RANGES_PER_DAY = 48;
export const MAX_EXCEPTIONS = 366;
export const MAX_NOTE = 100;

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export function cleanWorkingHours(input: HoursInput): WorkingHours {
  const timezone = cleanZone(input.timezone);
  const weekly: WorkingHours['weekly'] = {};
  for (const [key, ranges] of Object.entries(input.weekly)) {
    if (!WEEKDAYS.includes(key as Weekday)) {
      throw invalid(`Weekly hours are given per day as mon, tue, wed, thu, fri, sat or sun; "${key.slice(0, 20)}" is not one of them.`);
    }
    const day = key as Weekday;
    weekly[day] = cleanRanges(DAY_NAMES[day], ranges);
  }
  const exceptions: HoursException[] = [];
  const given = input.exceptions ?? [];
  if (given.length > MAX_EXCEPTIONS) throw invalid(`At most ${MAX_EXCEPTIONS} exception dates can be kept (got ${given.length}); remove past ones first.`);
  for (const e of given) {
    const date = cleanDate(e.date);
    if (exceptions.some((x) => x.date === date)) throw invalid(`${date} is listed twice among the exceptions; keep one entry per date.`);
    const note = typeof e.note === 'string' && e.note.trim() !== '' ? e.note.trim() : null;
    if (note !== null && note.length > MAX_NOTE) throw invalid(`The note of ${date} is longer than ${MAX_NOTE} characters.`);
    exceptions.push({ date, ranges: cleanRanges(date, e.ranges), note });
  }
  exceptions.sort((a, b) => (a.date < b.date ? -1 : 1));
  return { timezone, weekly, exceptions };
}

/** A known IANA zone, in its canonical spelling. */
function cleanZone(value: string): string {
  const zone = value.trim();
  if (zone === '' || !isTimeZone(zone)) {
    throw invalid(`"${value.slice(0, 60)}" is not a time zone this server knows; use an IANA name such as Europe/Berlin or America/New_York.`);
  }
  return new Intl.DateTimeFormat(undefined, { timeZone: zone }).resolvedOptions().timeZone;
}

function cleanDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw invalid(`"${value.slice(0, 20)}" is not a date; write exception dates as YYYY-MM-DD, e.g. 2026-12-25.`);
  }
  return value;
}

/** Ranges of one day, sorted; overlapping ranges are refused (they would say the same thing twice). */
function cleanRanges(where: string, ranges: string[][]): Range[] {
  if (ranges.length > MAX_RANGES_PER_DAY) throw invalid(`${where} has ${ranges.length} ranges; at most ${MAX_RANGES_PER_DAY} are allowed.`);
  const out: Range[] = ranges.map((range) => {
    const text = range.join('–').slice(0, 40);
    if (range.length !== 2) throw invalid(`${where}: "${text}" is not a range; give a start and an end, such as 09:00 and 17:00.`);
    const [start, end] = range;
    const s = minutesOf(start);
    const e = minutesOf(end);
    if (s === null || e === null) throw invalid(`${where}: "${text}" is not a range of times; write times as HH:MM between 00:00 and 24:00.`);
    if (s >= e) throw invalid(`${where}: ${start}–${end} ends before it starts; a range must end after it starts (use 24:00 for midnight).`);
    return [start, end];
  });
  out.sort((a, b) => (minutesOf(a[0]) ?? 0) - (minutesOf(b[0]) ?? 0));
  for (let i = 1; i < out.length; i++) {
    if ((minutesOf(out[i][0]) ?? 0) < (minutesOf(out[i - 1][1]) ?? 0)) {
      throw invalid(`${where}: ${out[i - 1].join('–')} and ${out[i].join('–')} overlap; join them into one range.`);
    }
  }
  return out;
}
