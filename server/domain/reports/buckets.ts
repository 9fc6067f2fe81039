/**
 * The buckets of a report (local days, or UTC hours labelled in local time)
 * and the SQL that puts a UTC time column into them, plus the filters every
 * rollup query shares.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Period, ReportScope } from './scope.js';
import { DAY, HOUR, localMsSql, offsetAt } from './zone.js';

export interface Bucket {
  key: number;
  /** Local date (YYYY-MM-DD) or local date and hour (YYYY-MM-DDTHH:MM). */
  label: string;
  /** UTC instant the bucket starts (ISO 8601). */
  start: string;
}

export function listBuckets(scope: ReportScope, period: Period): Bucket[] {
  const out: Bucket[] = [];
  if (scope.interval === 'hour') {
    for (let t = period.start; t < period.end; t += HOUR) {
      out.push({ key: t, label: new Date(t + offsetAt(scope.timezone, t)).toISOString().slice(0, 16), start: new Date(t).toISOString() });
    }
    return out;
  }
  for (let t = period.start; t < period.end;) {
    const day = Math.floor((t + offsetAt(scope.timezone, t)) / DAY);
    out.push({ key: day, label: new Date(day * DAY).toISOString().slice(0, 10), start: new Date(t).toISOString() });
    // The next bucket starts at the first UTC hour of the next local day.
    let next = t + HOUR;
    while (next < period.end && Math.floor((next + offsetAt(scope.timezone, next)) / DAY) === day) next += HOUR;
    t = next;
  }
  return out;
}

/** SQL: the bucket key of a UTC ms column (hour: the UTC hour it falls in; day: its local day number). */
export function bucketSql(scope: ReportScope, period: Period, column: RawBuilder<unknown>): RawBuilder<number> {
  if (scope.interval === 'hour') return sql<number>`(${column} - ${column} % ${sql.lit(HOUR)})`;
  return sql<number>`(${localMsSql(column, period.segments)} / ${sql.lit(DAY)})`;
}

/** SQL: local weekday (0 Monday … 6 Sunday) and hour (0 … 23) of a UTC ms column. */
export function weekdayHourSql(period: Period, column: RawBuilder<unknown>): { weekday: RawBuilder<number>; hour: RawBuilder<number> } {
  const local = localMsSql(column, period.segments);
  return {
    weekday: sql<number>`((${local} / ${sql.lit(DAY)} + 3) % 7)`,
    hour: sql<number>`((${local} % ${sql.lit(DAY)}) / ${sql.lit(HOUR)})`,
  };
}

/**
 * The WHERE of a table aliased `r` for a scope and period: the rollups by their
 * `hour`, offline messages and calls by `created_at` (those have no department
 * or agent; callers skip them under such filters).
 */
export function whereOf(scope: ReportScope, period: Period, time: 'hour' | 'created_at'): RawBuilder<boolean> {
  const parts = [sql`r.account_id = ${scope.accountId}`, sql`${sql.ref(`r.${time}`)} >= ${period.start}`, sql`${sql.ref(`r.${time}`)} < ${period.end}`];
  if (scope.channelId !== null) parts.push(sql`r.channel_id = ${scope.channelId}`);
  if (time === 'hour' && scope.departmentId !== null) parts.push(sql`r.department_id = ${scope.departmentId}`);
  if (time === 'hour' && scope.agentId !== null) parts.push(sql`r.agent_id = ${scope.agentId}`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** Numbers from the store: PostgreSQL sums arrive as strings. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
