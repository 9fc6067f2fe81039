/**
 * Ratings: positive and negative per bucket and per agent, and the share of
 * positive among rated chats, for the range and the previous period. A chat's
 * rating counts in the bucket in which the chat started.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { listBuckets, num, rollupOf, type Bucket } from './buckets.js';
import type { Period, ReportScope } from './scope.js';

export interface RatingCounts {
  positive: number;
  negative: number;
  /** positive ÷ (positive + negative), 0…1; null when nothing was rated. */
  positive_share: number | null;
}

export interface RatingsReport {
  series: (Bucket & RatingCounts)[];
  totals: RatingCounts;
  previous: RatingCounts;
  by_agent: ({ agent_id: number } & RatingCounts)[];
}

export function ratingCounts(positive: number, negative: number): RatingCounts {
  const rated = positive + negative;
  return { positive, negative, positive_share: rated === 0 ? null : Math.round((positive / rated) * 1000) / 1000 };
}

async function sums(db: Db, scope: ReportScope, period: Period, group: 'bucket' | 'agent' | 'all'): Promise<Map<number, RatingCounts>> {
  const src = rollupOf(scope, period, { bucketed: group === 'bucket', groupBy: group === 'agent' ? 'agent' : null });
  const key = group === 'bucket' ? src.bucket : group === 'agent' ? sql`r.agent_id` : sql`0`;
  const result = await sql<{ g: unknown; p: unknown; n: unknown }>`
    select ${key} as g, sum(r.positive) as p, sum(r.negative) as n from ${src.table} r
    where ${src.where} group by 1`.execute(db);
  return new Map(result.rows.map((r) => [num(r.g), ratingCounts(num(r.p), num(r.n))]));
}

export async function ratingsReport(db: Db, scope: ReportScope): Promise<RatingsReport> {
  const [perBucket, perAgent, prev] = await Promise.all([
    sums(db, scope, scope.current, 'bucket'),
    sums(db, scope, scope.current, 'agent'),
    sums(db, scope, scope.previous, 'all'),
  ]);
  let positive = 0;
  let negative = 0;
  for (const c of perBucket.values()) {
    positive += c.positive;
    negative += c.negative;
  }
  return {
    series: listBuckets(scope, scope.current).map((b) => ({ ...b, ...(perBucket.get(b.key) ?? ratingCounts(0, 0)) })),
    totals: ratingCounts(positive, negative),
    previous: prev.get(0) ?? ratingCounts(0, 0),
    by_agent: [...perAgent.entries()]
      .filter(([agentId, c]) => agentId !== 0 && c.positive + c.negative > 0)
      .sort((a, b) => a[0] - b[0])
      .map(([agent_id, c]) => ({ agent_id, ...c })),
  };
}
