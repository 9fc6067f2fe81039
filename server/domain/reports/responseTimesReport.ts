/**
 * First response time and chat duration over time: count, average, median
 * and 90th percentile per bucket (seconds), for the range and the previous
 * period. Averages are exact (sums); median and p90 are read from the
 * histogram bins (bins.ts; columns of the daily rollup). Chats count in the bucket in which they started;
 * duration only once finished.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { percentile } from './bins.js';
import { listBuckets, num, rollupOf, whereOf, type Bucket } from './buckets.js';
import { BIN_COLUMNS } from './dailyRollup.js';
import type { Period, ReportScope } from './scope.js';

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

export interface ResponseTimesReport {
  series: (Bucket & ResponseTimes)[];
  totals: ResponseTimes;
  previous: ResponseTimes;
}

type Metric = 'frt' | 'dur';

/** Per group key: metric → bin → count, and metric → [count, sum ms]. */
export class TimeAccumulator {
  private readonly bins = new Map<string, Map<number, number>>();
  private readonly sums = new Map<string, [number, number]>();

  addBin(key: string | number, metric: Metric, bin: number, count: number): void {
    const id = `${key}|${metric}`;
    let m = this.bins.get(id);
    if (!m) this.bins.set(id, (m = new Map<number, number>()));
    m.set(bin, (m.get(bin) ?? 0) + count);
  }

  addSum(key: string | number, metric: Metric, count: number, sumMs: number): void {
    const id = `${key}|${metric}`;
    const s = this.sums.get(id) ?? [0, 0];
    this.sums.set(id, [s[0] + count, s[1] + sumMs]);
  }

  figures(key: string | number, metric: Metric): TimeFigures {
    const [count, sum] = this.sums.get(`${key}|${metric}`) ?? [0, 0];
    const bins = this.bins.get(`${key}|${metric}`) ?? new Map<number, number>();
    return {
      count,
      average_s: count === 0 ? null : Math.round(sum / count / 100) / 10,
      median_s: percentile(bins, 0.5),
      p90_s: percentile(bins, 0.9),
    };
  }

  both(key: string | number): ResponseTimes {
    return { first_response: this.figures(key, 'frt'), duration: this.figures(key, 'dur') };
  }
}

/** Fills acc with the period's bins and sums, grouped by bucket key or agent id (then key 'all' holds the whole period too), or all under key 0. */
export async function accumulate(db: Db, scope: ReportScope, period: Period, acc: TimeAccumulator, group: 'bucket' | 'agent' | 'all'): Promise<void> {
  const src = rollupOf(scope, period, { bucketed: group === 'bucket', groupBy: group === 'agent' ? 'agent' : null });
  const key = group === 'bucket' ? src.bucket : group === 'agent' ? sql`r.agent_id` : sql`0`;
  const addBin = (g: number, metric: Metric, bin: number, n: number) => {
    acc.addBin(g, metric, bin, n);
    if (group !== 'all') acc.addBin('all', metric, bin, n);
  };
  if (src.daily) {
    // The daily rollup carries its bins as columns (frt_0 … dur_27).
    const result = await sql<Record<string, unknown>>`
      select ${key} as g, sum(r.frt_count) as fc, sum(r.frt_sum_ms) as fs, sum(r.dur_count) as dc, sum(r.dur_sum_ms) as ds,
        ${sql.join(BIN_COLUMNS.map((c) => sql`sum(${sql.ref(`r.${c}`)}) as ${sql.id(c)}`))}
      from report_daily r where ${src.where} group by 1`.execute(db);
    for (const r of result.rows) {
      addSums(acc, group, num(r.g), r);
      for (const col of BIN_COLUMNS) {
        const n = num(r[col]);
        if (n === 0) continue;
        const [metric, bin] = col.split('_');
        addBin(num(r.g), metric === 'frt' ? 'frt' : 'dur', Number(bin), n);
      }
    }
    return;
  }
  const where = whereOf(scope, period, 'hour', group === 'agent' ? 'agent' : null);
  const hist = await sql<{ g: unknown; metric: Metric; bin: number; n: unknown }>`
    select ${key} as g, r.metric, r.bin, sum(r.count) as n from report_hist r
    where ${where} group by 1, 2, 3`.execute(db);
  for (const r of hist.rows) addBin(num(r.g), r.metric, r.bin, num(r.n));
  const sums = await sql<Record<string, unknown>>`
    select ${key} as g, sum(r.frt_count) as fc, sum(r.frt_sum_ms) as fs, sum(r.dur_count) as dc, sum(r.dur_sum_ms) as ds from report_hourly r
    where ${where} group by 1`.execute(db);
  for (const r of sums.rows) addSums(acc, group, num(r.g), r);
}

function addSums(acc: TimeAccumulator, group: 'bucket' | 'agent' | 'all', g: number, r: Record<string, unknown>): void {
  for (const key of group === 'all' ? [g] : [g, 'all']) {
    acc.addSum(key, 'frt', num(r.fc), num(r.fs));
    acc.addSum(key, 'dur', num(r.dc), num(r.ds));
  }
}

export async function responseTimesReport(db: Db, scope: ReportScope): Promise<ResponseTimesReport> {
  const current = new TimeAccumulator();
  const prev = new TimeAccumulator();
  await Promise.all([accumulate(db, scope, scope.current, current, 'bucket'), accumulate(db, scope, scope.previous, prev, 'all')]);
  return {
    series: listBuckets(scope, scope.current).map((b) => ({ ...b, ...current.both(b.key) })),
    totals: current.both('all'),
    previous: prev.both(0),
  };
}
