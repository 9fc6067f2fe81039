/**
 * Reports (issue 22), second step: rollup rows for "all" (the cube), so a
 * year-long report reads a few rows an hour instead of one per channel ×
 * department × agent key (bench/reports.ts: 1,000,000 chats a year).
 *
 * Beside each exact key (channel, department 0 = none, agent 0 = none),
 * report_hourly and report_hist now hold, per account and hour, the sums
 * over the dimensions left out, marked -1 ("all"):
 *   (-1, -1, -1)  everything          — reports without filters
 *   (c, -1, -1)   per channel         — channel filter, or per-channel figures
 *   (-1, d, -1)   per department      — department filter
 *   (-1, -1, a)   per accepting agent — agent filter, or per-agent figures
 * A report that filters or groups by two dimensions or more reads the exact
 * keys (every dimension ≠ -1). domain/reports/chatContribution.ts keeps all
 * five rows of a chat's key in step; buckets.ts (whereOf) picks the rows.
 * One index per table serves the cube's lookups: every dimension by
 * equality, then the hour range.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

const MEASURES = 'started, accepted, finished, missed, frt_count, frt_sum_ms, dur_count, dur_sum_ms, handled_ms, positive, negative';
const SUMS = MEASURES.split(', ')
  .map((m) => `sum(${m})`)
  .join(', ');
const EXACT = 'channel_id <> -1 and department_id <> -1 and agent_id <> -1';

/** The "all" rows (-1) of both rollups, summed from their exact rows (which must be the only rows: a fresh store, or the bench's bulk seed). */
export async function buildCubeRows(db: AnyDb): Promise<void> {
  const cuts: Array<[string, string]> = [
    ['-1, -1, -1', ''],
    ['channel_id, -1, -1', 'channel_id'],
    ['-1, department_id, -1', 'department_id'],
    ['-1, -1, agent_id', 'agent_id'],
  ];
  for (const [dims, by] of cuts) {
    const group = ['account_id', 'hour', by].filter(Boolean).join(', ');
    await sql
      .raw(
        `insert into report_hourly (account_id, hour, channel_id, department_id, agent_id, ${MEASURES})
         select account_id, hour, ${dims}, ${SUMS} from report_hourly where ${EXACT} group by ${group}`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into report_hist (account_id, hour, channel_id, department_id, agent_id, metric, bin, count)
         select account_id, hour, ${dims}, metric, bin, sum(count) from report_hist where ${EXACT} group by ${group}, metric, bin`,
      )
      .execute(db);
  }
}

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.createIndex('report_hourly_cube').on('report_hourly').columns(['account_id', 'channel_id', 'department_id', 'agent_id', 'hour']).execute();
  await db.schema.createIndex('report_hist_cube').on('report_hist').columns(['account_id', 'channel_id', 'department_id', 'agent_id', 'hour']).execute();
  await buildCubeRows(db);
}
