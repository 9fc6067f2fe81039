/**
 * Busiest hours: chats started per local weekday (Monday first) × hour of
 * the day, over the range, in the report's time zone (daylight saving
 * included: each UTC hour is placed by the offset in force then).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { num, weekdayHourSql, whereOf } from './buckets.js';
import type { ReportScope } from './scope.js';

export interface BusiestHoursReport {
  /** 7 rows (Monday … Sunday) of 24 counts (00:00 … 23:00 local). */
  grid: number[][];
  max: number;
  total: number;
}

export async function busiestHours(db: Db, scope: ReportScope): Promise<BusiestHoursReport> {
  const { weekday, hour } = weekdayHourSql(scope.current, sql`r.hour`);
  const result = await sql<{ w: unknown; h: unknown; n: unknown }>`
    select ${weekday} as w, ${hour} as h, sum(r.started) as n from report_hourly r
    where ${whereOf(scope, scope.current, 'hour')} group by 1, 2`.execute(db);
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  let max = 0;
  let total = 0;
  for (const r of result.rows) {
    const n = num(r.n);
    grid[num(r.w)][num(r.h)] += n;
    max = Math.max(max, grid[num(r.w)][num(r.h)]);
    total += n;
  }
  return { grid, max, total };
}
