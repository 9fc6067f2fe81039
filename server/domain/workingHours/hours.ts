/**
 * Working hours for chat, pure: weekly hours in an IANA time zone (the shape
 * of the callback hours: mon…sun → ["HH:MM","HH:MM"] ranges, start included,
 * end excluded, "24:00" ends at midnight, a missing day is closed) plus dated
 * exceptions that replace the weekly hours of one local date (no ranges =
 * closed all day, e.g. a holiday). `null` hours mean always open.
 *
 * Whether it is open at an instant, when that next changes (the boundary the
 * visitor sockets' timers wait for, across daylight-saving changes), and the
 * days ahead as the admin app previews them. The caller passes the instant.
 */
import { localTime, minutesOf, WEEKDAYS } from '../settings/callbackHours.js';
import type { Weekday } from '../../model/callback.js';
import type { HoursException, HoursState, HoursStatus, PreviewDay, Range, WorkingHours } from '../../model/workingHours.js';
// The shapes are below the domain (the presenters show them).
export type { HoursException, HoursState, HoursStatus, PreviewDay, Range, WorkingHours } from '../../model/workingHours.js';

/** How far ahead the next change is looked for, at most. */
const HORIZON_DAYS = 400;
const MINUTE = 60_000;
const DAY = 86_400_000;

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatter(zone: string): Intl.DateTimeFormat {
  let f = dateFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(zone, f);
  }
  return f;
}

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(instant: number, zone: string): string {
  const parts = dateFormatter(zone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The date `days` after a YYYY-MM-DD date, and its weekday. */
export function addDays(date: string, days: number): { date: string; weekday: Weekday } {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d) + days * DAY);
  return { date: t.toISOString().slice(0, 10), weekday: WEEKDAYS[(t.getUTCDay() + 6) % 7] };
}

/** The ranges in force on a local date: its exception's, or its weekday's. */
export function rangesOn(hours: WorkingHours, date: string, weekday: Weekday): { ranges: Range[]; exception: HoursException | null } {
  const exception = hours.exceptions.find((e) => e.date === date) ?? null;
  return { ranges: exception ? exception.ranges : (hours.weekly[weekday] ?? []), exception };
}

export function isOpenAt(hours: WorkingHours | null, instant: number): boolean {
  if (hours === null) return true;
  const { day, minutes } = localTime(new Date(instant), hours.timezone);
  const { ranges } = rangesOn(hours, localDate(instant, hours.timezone), day);
  return ranges.some(([start, end]) => {
    const s = minutesOf(start);
    const e = minutesOf(end);
    return s !== null && e !== null && minutes >= s && minutes < e;
  });
}

/** Offset of the zone from UTC at an instant, in ms (local = UTC + offset). */
function offsetAt(instant: number, zone: string): number {
  const date = localDate(instant, zone);
  const { minutes } = localTime(new Date(instant), zone);
  const [y, m, d] = date.split('-').map(Number);
  const local = Date.UTC(y, m - 1, d) + minutes * MINUTE;
  return local - Math.floor(instant / MINUTE) * MINUTE;
}

/** An instant at which the local clock reads `minutes` on `date` (near it inside a daylight-saving gap). */
function instantOf(date: string, minutes: number, zone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d) + minutes * MINUTE;
  const first = guess - offsetAt(guess, zone);
  return guess - offsetAt(first, zone);
}

/** Whether it is open now and when that changes: the first range edge ahead where it differs, to the minute. */
export function hoursState(hours: WorkingHours | null, now: number): HoursState {
  if (hours === null) return { open: true, changes_at: null };
  const open = isOpenAt(hours, now);
  const today = localDate(now, hours.timezone);
  // Past the last exception the weeks repeat: a change not seen within 8 more days never comes.
  const last = hours.exceptions.reduce((max, e) => (e.date > max ? e.date : max), today);
  const days = Math.min(HORIZON_DAYS, Math.round((Date.parse(last) - Date.parse(today)) / DAY) + 8);
  let before = now;
  for (let i = 0; i <= days; i++) {
    const { date, weekday } = addDays(today, i);
    const edges = new Set<number>([0]);
    for (const [start, end] of rangesOn(hours, date, weekday).ranges) {
      edges.add(minutesOf(start) ?? 0);
      edges.add(minutesOf(end) ?? 0);
    }
    const instants = [...edges].map((min) => instantOf(date, min, hours.timezone)).sort((a, b) => a - b);
    for (const at of instants) {
      if (at <= before) continue;
      if (isOpenAt(hours, at) !== open) return { open, changes_at: firstChange(hours, open, before, at) };
      before = at;
    }
  }
  return { open, changes_at: null };
}

/** The first minute in (from, to] where it is no longer `open` (it is at `to`): a daylight-saving jump may move an edge. */
function firstChange(hours: WorkingHours, open: boolean, from: number, to: number): number {
  let lo = Math.floor(from / MINUTE);
  let hi = Math.ceil(to / MINUTE);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (isOpenAt(hours, mid * MINUTE) !== open) hi = mid;
    else lo = mid;
  }
  return Math.max(hi * MINUTE, from + 1);
}

/** The next `count` local days from the one `now` falls on, with the ranges in force and the exception deciding each. */
export function previewDays(hours: WorkingHours | null, now: number, count = 7): PreviewDay[] {
  const zone = hours?.timezone ?? 'UTC';
  const today = localDate(now, zone);
  const days: PreviewDay[] = [];
  for (let i = 0; i < count; i++) {
    const { date, weekday } = addDays(today, i);
    if (hours === null) {
      days.push({ date, weekday, ranges: [['00:00', '24:00']], exception: null });
      continue;
    }
    const { ranges, exception } = rangesOn(hours, date, weekday);
    days.push({ date, weekday, ranges, exception: exception ? (exception.note ?? '') : null });
  }
  return days;
}

/** What the admin app shows of hours at an instant: open now, the next change, the week ahead. */
export function hoursStatus(hours: WorkingHours | null, now: number): HoursStatus {
  return { ...hoursState(hours, now), preview: previewDays(hours, now) };
}
