/**
 * The buckets of a report (local days, or UTC hours labelled in local time)
 * and the SQL that puts a UTC time column into them, plus the filters every
 * rollup query shares.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Period, ReportScope } from './scope.js';
import { DAY, HOUR, localMsSql, offsetIn } from './zone.js';

export interface Bucket {
  key: number;
  /** Local date (YYYY-MM-DD) or local date and hour (YYYY-MM-DDTHH:MM). */
  label: string;
  /** UTC instant the bucket starts (ISO 8601). */
  start: string;
}

export function listBuckets(scope: ReportScope, period: Period): Bucket[] {
  const out: Bucket[] = [];
  const offset = (t: number) => offsetIn(period.segments, t);
  if (scope.interval === 'hour') {
    for (let t = period.start; t < period.end; t += HOUR) {
      out.push({ key: t, label: new Date(t + offset(t)).toISOString().slice(0, 16), start: new Date(t).toISOString() });
    }
    return out;
  }
  for (let t = period.start; t < period.end;) {
    const day = Math.floor((t + offset(t)) / DAY);
    out.push({ key: day, label: new Date(day * DAY).toISOString().slice(0, 10), start: new Date(t).toISOString() });
    // The next bucket starts at the first UTC hour of the next local day.
    let next = t + HOUR;
    while (next < period.end && Math.floor((next + offset(next)) / DAY) === day) next += HOUR;
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

/** The "all" mark of the rollups' dimensions (migration 015_reports_cube). */
export const ALL = -1;

/**
 * The WHERE of a table aliased `r` for a scope and period: the rollups by their
 * `hour`, offline messages and calls by `created_at` (those have no department
 * or agent; callers skip them under such filters).
 *
 * Rollups hold exact keys and, per dimension left out, "all" rows (-1, migration
 * 015_reports_cube). A report that filters or groups (`groupBy`) by at most one
 * dimension reads the cube row of that dimension (or of everything): a few rows
 * an hour. Two or more read the exact keys, every dimension not -1.
 */
export function whereOf(scope: ReportScope, period: Period, time: 'hour' | 'created_at', groupBy: 'channel' | 'agent' | null = null): RawBuilder<boolean> {
  const parts = [sql`r.account_id = ${scope.accountId}`, sql`${sql.ref(`r.${time}`)} >= ${period.start}`, sql`${sql.ref(`r.${time}`)} < ${period.end}`];
  if (time === 'created_at') {
    if (scope.channelId !== null) parts.push(sql`r.channel_id = ${scope.channelId}`);
    return sql<boolean>`${sql.join(parts, sql` and `)}`;
  }
  const dims = [
    ['channel_id', scope.channelId, groupBy === 'channel'],
    ['department_id', scope.departmentId, false],
    ['agent_id', scope.agentId, groupBy === 'agent'],
  ] as const;
  const cube = dims.filter(([, value, grouped]) => value !== null || grouped).length <= 1;
  for (const [column, value, grouped] of dims) {
    if (value !== null) parts.push(sql`${sql.ref(`r.${column}`)} = ${value}`);
    else if (grouped || !cube) parts.push(sql`${sql.ref(`r.${column}`)} <> ${sql.lit(ALL)}`);
    else parts.push(sql`${sql.ref(`r.${column}`)} = ${sql.lit(ALL)}`);
  }
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** Where a report query reads its chat figures: the table (aliased `r` by the caller), its WHERE, and its bucket key. */
export interface Rollup {
  table: RawBuilder<unknown>;
  where: RawBuilder<boolean>;
  bucket: RawBuilder<number>;
  daily: boolean;
}

/**
 * The rollup a query of a period reads. The daily rollup (migration 023) when
 * it is built in the report's zone and the query needs no hours (totals, or
 * day buckets); else report_hourly. `bucketed`: the query groups by bucket.
 *
 * The daily rollup holds the whole cube: each dimension filtered reads its
 * value, grouped reads every value (≠ -1), else "all" (-1).
 */
export function rollupOf(scope: ReportScope, period: Period, options: { bucketed: boolean; groupBy?: 'channel' | 'agent' | null }): Rollup {
  const groupBy = options.groupBy ?? null;
  if (!scope.daily || (options.bucketed && scope.interval === 'hour'))
    return { table: sql.table('report_hourly'), where: whereOf(scope, period, 'hour', groupBy), bucket: bucketSql(scope, period, sql`r.hour`), daily: false };
  const parts = [sql`r.account_id = ${scope.accountId}`, sql`r.day >= ${period.firstDay}`, sql`r.day <= ${period.lastDay}`];
  for (const [column, value, grouped] of [
    ['channel_id', scope.channelId, groupBy === 'channel'],
    ['department_id', scope.departmentId, false],
    ['agent_id', scope.agentId, groupBy === 'agent'],
  ] as const) {
    if (value !== null) parts.push(sql`${sql.ref(`r.${column}`)} = ${value}`);
    // Grouped: every value but "all". `<>`, not `>`: no index range on it, so SQLite reads the index whose
    // prefix holds the equalities and the days (a channel filter grouped by agent: the primary key, one year
    // of days, not report_daily_by_channel's every day of the department).
    else parts.push(sql`${sql.ref(`r.${column}`)} ${grouped ? sql`<>` : sql`=`} ${sql.lit(ALL)}`);
  }
  return { table: sql.table('report_daily'), where: sql<boolean>`${sql.join(parts, sql` and `)}`, bucket: sql<number>`r.day`, daily: true };
}

/** Numbers from the store: PostgreSQL sums arrive as strings. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
