/**
 * The Reports page's pure parts (no DOM, no React): the shapes of
 * /api/v1/reports/*, date-range presets in the report's time zone, how
 * figures are written (durations, shares, changes against the previous
 * period), the heat map's shading, and the CSV of each report. Words and
 * dates are in the app's language (i18n); the CSV keeps English column names
 * and weekdays, a file for programs as much as for people.
 */
import { formatDateTime, formatNumber, language, t } from '../i18n';
import type { TextKey } from '../i18n/en';

export interface ReportRange {
  from: string;
  to: string;
  timezone: string;
  interval: 'day' | 'hour';
  channel_id: number | null;
  department_id: number | null;
  agent_id: number | null;
  previous_from: string;
  previous_to: string;
}

export interface Bucket {
  key: number;
  label: string;
  start: string;
}

export interface ChatCounts {
  started: number;
  accepted: number;
  missed: number;
  offline_messages: number;
  callbacks: number;
}

export interface TimeFigures {
  count: number;
  average_s: number | null;
  median_s: number | null;
  p90_s: number | null;
}

export interface ResponseTimes {
  first_response: TimeFigures;
  duration: TimeFigures;
}

export interface RatingCounts {
  positive: number;
  negative: number;
  positive_share: number | null;
}

export interface ChatsReport {
  range: ReportRange;
  series: (Bucket & ChatCounts)[];
  totals: ChatCounts;
  previous: ChatCounts;
  by_channel: ({ channel_id: number } & ChatCounts)[];
}

export interface ResponseTimesReport {
  range: ReportRange;
  series: (Bucket & ResponseTimes)[];
  totals: ResponseTimes;
  previous: ResponseTimes;
}

export interface RatingsReport {
  range: ReportRange;
  series: (Bucket & RatingCounts)[];
  totals: RatingCounts;
  previous: RatingCounts;
  by_agent: ({ agent_id: number } & RatingCounts)[];
}

export interface AgentFigures extends RatingCounts {
  agent_id: number;
  name: string;
  chats_handled: number;
  first_response: TimeFigures;
  online_s: number;
  away_s: number;
  average_concurrency: number | null;
}

export interface AgentsReport {
  range: ReportRange;
  agents: AgentFigures[];
}

export interface BusiestHoursReport {
  range: ReportRange;
  grid: number[][];
  max: number;
  total: number;
}

export type Preset = 'today' | 'yesterday' | '7d' | '30d' | '90d' | '365d' | 'custom';

export const PRESETS: Array<[Exclude<Preset, 'custom'>, TextKey]> = [
  ['today', 'pages.reports.today'],
  ['yesterday', 'pages.reports.yesterday'],
  ['7d', 'pages.reports.last7'],
  ['30d', 'pages.reports.last30'],
  ['90d', 'pages.reports.last90'],
  ['365d', 'pages.reports.last12Months'],
];

/** Longest range the API takes, and the longest with hourly buckets (server/domain/reports/scope.ts). */
export const MAX_DAYS = 400;
export const MAX_HOURLY_DAYS = 31;

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today's date (YYYY-MM-DD) in a time zone; the browser's zone when the name is unknown. */
export function todayIn(zone: string | null, now: number = Date.now()): string {
  const format = (timeZone?: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  try {
    return format(zone ?? undefined);
  } catch {
    return format();
  }
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when either is not a date or `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  if (!DATE.test(from) || !DATE.test(to)) return 0;
  const n = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function presetRange(preset: Exclude<Preset, 'custom'>, today: string): { from: string; to: string } {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case '365d':
      return { from: addDays(today, -364), to: today };
  }
}

/** What is wrong with a custom range, in a sentence that says what to do; null when it is fine. */
export function rangeProblem(from: string, to: string, interval: 'auto' | 'day' | 'hour'): string | null {
  if (!DATE.test(from) || !DATE.test(to)) return t('pages.reports.pickBoth');
  const days = daysBetween(from, to);
  if (days === 0) return t('pages.reports.lastBeforeFirst');
  if (days > MAX_DAYS) return t('pages.reports.tooLong', { count: MAX_DAYS });
  if (interval === 'hour' && days > MAX_HOURLY_DAYS) return t('pages.reports.tooLongHourly', { count: MAX_HOURLY_DAYS });
  return null;
}

const WEEKDAYS_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Bucket labels are local days and hours already: Intl writes them as UTC so nothing shifts. */
const UTC = { timeZone: 'UTC' } as const;

/**
 * A bucket label for people: "Tue 3 Nov 2026" for a day, "Sun 1 Nov 01:00" for an hour. English keeps
 * this short day-month form (Intl's en puts commas in); other languages write it as Intl does.
 */
export function bucketTitle(label: string): string {
  const day = new Date(`${label.slice(0, 10)}T00:00:00Z`);
  if (language() !== 'en') {
    const date = formatDateTime(day.getTime(), { ...UTC, weekday: 'short', day: 'numeric', month: 'short', ...(label.length > 10 ? {} : { year: 'numeric' }) });
    return label.length > 10 ? `${date} ${label.slice(11, 16)}` : date;
  }
  const date = `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
  if (label.length > 10) return `${WEEKDAYS_SHORT[day.getUTCDay()]} ${date} ${label.slice(11, 16)}`;
  return `${WEEKDAYS_SHORT[day.getUTCDay()]} ${date} ${day.getUTCFullYear()}`;
}

/** A short axis tick: "3 Nov" for a day; "14:00" for an hour, "3 Nov" at midnight. */
export function bucketTick(label: string): string {
  const day = new Date(`${label.slice(0, 10)}T00:00:00Z`);
  if (label.length > 10 && label.slice(11, 13) !== '00') return label.slice(11, 16);
  if (language() !== 'en') return formatDateTime(day.getTime(), { ...UTC, day: 'numeric', month: 'short' });
  return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
}

type Unit = 's' | 'min' | 'h' | 'd';
const UNIT: Record<Unit, TextKey> = { s: 'pages.units.s', min: 'pages.units.min', h: 'pages.units.h', d: 'pages.units.d' };
const unit = (n: number, u: Unit): string => t(UNIT[u], { n });

/** A duration for people: "45 s", "3 min 20 s", "2 h 5 min", "3 d 4 h"; "–" when there is none. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  if (s < 60) return unit(s, 's');
  if (s < 3600) return s % 60 === 0 || s >= 600 ? unit(Math.round(s / 60), 'min') : `${unit(Math.floor(s / 60), 'min')} ${unit(s % 60, 's')}`;
  if (s < 86_400) {
    const m = Math.round((s % 3600) / 60);
    return m === 0 ? unit(Math.floor(s / 3600), 'h') : `${unit(Math.floor(s / 3600), 'h')} ${unit(m, 'min')}`;
  }
  const h = Math.round((s % 86_400) / 3600);
  return h === 0 ? unit(Math.floor(s / 86_400), 'd') : `${unit(Math.floor(s / 86_400), 'd')} ${unit(h, 'h')}`;
}

/** A duration axis tick (round values only): "30 s", "2 min", "1.5 h". */
export function durationTick(seconds: number): string {
  if (seconds < 60) return unit(seconds, 's');
  if (seconds < 3600) return unit(+(seconds / 60).toFixed(1), 'min');
  if (seconds < 86_400) return unit(+(seconds / 3600).toFixed(1), 'h');
  return unit(+(seconds / 86_400).toFixed(1), 'd');
}

/** Steps of a duration axis, in seconds: round minutes and hours. */
export const DURATION_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800];

export function share(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : t('pages.units.percent', { n: Math.round(value * 100) });
}

export function count(value: number): string {
  return formatNumber(value);
}

export interface Change {
  text: string;
  /** up / down / same; `better` says whether that is good news for the figure. */
  direction: 'up' | 'down' | 'same' | 'none';
  better: boolean | null;
}

/**
 * The change of a figure against the previous period: "+12 %", "−3 %",
 * "no change"; "new" when the previous period had none. `higherIsBetter`
 * colours it (more chats answered: good; longer waits: bad); null: neutral.
 */
export function change(current: number | null, previous: number | null, higherIsBetter: boolean | null): Change {
  if (current === null || previous === null) return { text: t('pages.reports.noFigure'), direction: 'none', better: null };
  if (current === previous) return { text: t('pages.reports.noChange'), direction: 'same', better: null };
  const up = current > previous;
  const better = higherIsBetter === null ? null : up === higherIsBetter;
  if (previous === 0) return { text: t('pages.reports.newFigure'), direction: 'up', better };
  const pct = Math.round(((current - previous) / previous) * 100);
  const text =
    pct === 0 ? (up ? t('pages.units.upTiny') : t('pages.units.downTiny')) : t(pct > 0 ? 'pages.units.up' : 'pages.units.down', { n: Math.abs(pct) });
  return { text, direction: up ? 'up' : 'down', better };
}

/** Shade of a heat-map cell, 0 (none) … 5 (the busiest hour). */
export function heatLevel(value: number, max: number): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.max(1, Math.min(5, Math.ceil((value / max) * 5)));
}

/** The CSV's weekdays (English, Monday first: the heat map's rows). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A weekday of the heat map (0: Monday) in the app's language: 2024-01-01 was a Monday. */
export function weekday(index: number, width: 'long' | 'short'): string {
  return formatDateTime(Date.UTC(2024, 0, 1 + index), { ...UTC, weekday: width });
}

export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

type Cell = string | number | null;

/** Characters a spreadsheet reads as the start of a formula (OWASP's list). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * Characters after which a spreadsheet may start a new cell: the comma we write, but also the
 * `;` a European locale splits on, tab, `|`, a line break, and a quote opening quoted content.
 * A file opened with another separator than ours must not run a formula either.
 */
const CELL_SEPARATORS = new Set([',', ';', '\t', '|', '\n', '\r', '"']);

/** Puts a ' before every cell start that begins like a formula, so no split of the text runs one. */
function neutraliseFormulas(value: string): string {
  let out = '';
  let cellStart = true;
  for (const ch of value) {
    if (cellStart && FORMULA_START.has(ch)) out += "'";
    out += ch;
    cellStart = CELL_SEPARATORS.has(ch);
  }
  return out;
}

/** One CSV field: formulas neutralised, then quoted when it holds any separator or a quote. */
function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = neutraliseFormulas(value);
  return /[",;\t|\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: Cell[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const seconds = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

export function chatsCsv(r: ChatsReport): string {
  return toCsv([
    ['bucket', 'bucket_start_utc', 'started', 'accepted', 'missed', 'offline_messages', 'callbacks'],
    ...r.series.map((b) => [b.label, b.start, b.started, b.accepted, b.missed, b.offline_messages, b.callbacks]),
  ]);
}

/** Per channel: the totals of the period (names from the caller: the report has ids). */
export function channelsCsv(r: ChatsReport, nameOf: (id: number) => string): string {
  return toCsv([
    ['channel_id', 'channel', 'started', 'accepted', 'missed', 'offline_messages', 'callbacks'],
    ...r.by_channel.map((c) => [c.channel_id, nameOf(c.channel_id), c.started, c.accepted, c.missed, c.offline_messages, c.callbacks]),
  ]);
}

export function responseTimesCsv(r: ResponseTimesReport): string {
  return toCsv([
    [
      'bucket',
      'bucket_start_utc',
      'first_response_count',
      'first_response_average_s',
      'first_response_median_s',
      'first_response_p90_s',
      'duration_count',
      'duration_average_s',
      'duration_median_s',
      'duration_p90_s',
    ],
    ...r.series.map((b) => [
      b.label,
      b.start,
      b.first_response.count,
      seconds(b.first_response.average_s),
      seconds(b.first_response.median_s),
      seconds(b.first_response.p90_s),
      b.duration.count,
      seconds(b.duration.average_s),
      seconds(b.duration.median_s),
      seconds(b.duration.p90_s),
    ]),
  ]);
}

export function ratingsCsv(r: RatingsReport): string {
  return toCsv([
    ['bucket', 'bucket_start_utc', 'positive', 'negative', 'positive_share'],
    ...r.series.map((b) => [b.label, b.start, b.positive, b.negative, b.positive_share]),
  ]);
}

export function busiestHoursCsv(r: BusiestHoursReport): string {
  return toCsv([['weekday', ...Array.from({ length: 24 }, (_, h) => hourLabel(h))], ...r.grid.map((row, d) => [WEEKDAYS[d] ?? String(d), ...row])]);
}

export function agentsCsv(r: AgentsReport): string {
  return toCsv([
    [
      'agent_id',
      'agent',
      'chats_handled',
      'first_response_median_s',
      'first_response_p90_s',
      'online_s',
      'away_s',
      'average_concurrency',
      'positive',
      'negative',
      'positive_share',
    ],
    ...r.agents.map((a) => [
      a.agent_id,
      a.name,
      a.chats_handled,
      seconds(a.first_response.median_s),
      seconds(a.first_response.p90_s),
      a.online_s,
      a.away_s,
      a.average_concurrency,
      a.positive,
      a.negative,
      a.positive_share,
    ]),
  ]);
}

/** File name of a report's CSV: parley-chats-2026-11-01-to-2026-11-30.csv. */
export function csvName(report: string, range: ReportRange): string {
  return `parley-${report}-${range.from}-to-${range.to}.csv`;
}
