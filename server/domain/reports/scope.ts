/**
 * What a report covers, checked and resolved once for every report: whole
 * local days `from`…`to` (inclusive) of a time zone (default: the account's,
 * the zone of its callback hours), day or hour buckets, optional channel,
 * department and agent filters, and the previous period of the same length.
 *
 * Who sees what: admins every figure of their account; an agent only its own
 * (the agent filter is set to itself; asking for another agent is 403).
 *
 * Rollups are per UTC hour (and per local day of the account's zone, once
 * built: `daily`). The range is taken as the UTC hours that start inside it (`start`, `end` are rounded up to whole UTC hours): exact in every
 * zone with a whole-hour offset; in the few zones with a half- or
 * quarter-hour offset an hour counts in the local day and hour it starts in.
 */
import type { Db } from '../../db/database.js';
import { AppError, invalid } from '../../errors/AppError.js';
import type { Actor } from '../agents/actor.js';
import { accountZone, dailyZoneOf } from './dailyRollup.js';
import { DAY, HOUR, isValidZone, localMidnight, offsetSegments, type OffsetSegment } from './zone.js';

export type Interval = 'day' | 'hour';

export interface ReportInput {
  from: string;
  to: string;
  timezone?: string;
  interval?: Interval;
  channelId?: number;
  departmentId?: number;
  agentId?: number;
}

export interface Period {
  from: string;
  to: string;
  /** First UTC hour counted (ms). */
  start: number;
  /** First UTC hour no longer counted (ms). */
  end: number;
  /** The zone's offsets over [start, end). */
  segments: OffsetSegment[];
  /** Local day numbers (days since 1970-01-01) of from and to: the daily rollup's keys. */
  firstDay: number;
  lastDay: number;
}

export interface ReportScope {
  accountId: number;
  timezone: string;
  interval: Interval;
  channelId: number | null;
  departmentId: number | null;
  agentId: number | null;
  current: Period;
  previous: Period;
  /** Whether the account's daily rollup is built in this zone (migration 023): then whole days are read from it. */
  daily: boolean;
}

/** Longest range of a report, in days; hourly buckets at most MAX_HOURLY_DAYS. */
export const MAX_DAYS = 400;
export const MAX_HOURLY_DAYS = 31;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(date: string, name: string): number {
  const m = DATE.exec(date);
  const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== date || Number(m[1]) < 2000 || Number(m[1]) > 2200)
    throw invalid(`${name} must be a date written YYYY-MM-DD (e.g. 2026-11-01), between the years 2000 and 2200.`);
  return t / DAY;
}

const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const ceilHour = (t: number) => Math.ceil(t / HOUR) * HOUR;

function periodOf(zone: string, firstDay: number, lastDay: number): Period {
  const from = dateOf(firstDay);
  const to = dateOf(lastDay);
  const start = ceilHour(localMidnight(zone, from));
  const end = ceilHour(localMidnight(zone, dateOf(lastDay + 1)));
  return { from, to, start, end, segments: offsetSegments(zone, start, end), firstDay, lastDay };
}

export async function resolveScope(db: Db, actor: Actor, input: ReportInput): Promise<ReportScope> {
  const first = dayNumber(input.from, 'from');
  const last = dayNumber(input.to, 'to');
  if (last < first) throw invalid('to must be the same day as from or later.');
  const days = last - first + 1;
  if (days > MAX_DAYS) throw invalid(`A report covers at most ${MAX_DAYS} days; pick a shorter range.`);
  const interval = input.interval ?? (days <= 2 ? 'hour' : 'day');
  if (interval === 'hour' && days > MAX_HOURLY_DAYS)
    throw invalid(`Hourly buckets cover at most ${MAX_HOURLY_DAYS} days; pick interval=day or a shorter range.`);
  if (input.timezone !== undefined && !isValidZone(input.timezone)) throw invalid('timezone must be an IANA time zone name, e.g. Europe/Berlin.');

  let agentId = input.agentId ?? null;
  if (actor.role !== 'admin') {
    if (agentId !== null && agentId !== actor.id) throw new AppError('forbidden', 'Agents see only their own figures; leave agent_id out or use your own id.');
    agentId = actor.id;
  }
  const [settings, dailyZone] = await Promise.all([
    input.timezone === undefined ? db.selectFrom('settings').select('callback_json').where('account_id', '=', actor.account_id).executeTakeFirst() : undefined,
    dailyZoneOf(db, actor.account_id),
  ]);
  const timezone = input.timezone ?? accountZone(settings);
  return {
    accountId: actor.account_id,
    timezone,
    interval,
    channelId: input.channelId ?? null,
    departmentId: input.departmentId ?? null,
    agentId,
    current: periodOf(timezone, first, last),
    previous: periodOf(timezone, first - days, first - 1),
    daily: dailyZone !== undefined && dailyZone.built_through === null && dailyZone.timezone === timezone,
  };
}
