/**
 * Reports (issue 22), third step: a daily rollup in the account's time zone,
 * so a report over months or a year reads one row a day instead of 24.
 *
 * - `report_daily`: per account × local day (days since 1970-01-01 of the
 *   zone in `report_daily_zones`) × channel × department × agent, the sums of
 *   report_hourly and, as columns, the histogram bins of report_hist
 *   (`frt_0`…`frt_27`, `dur_0`…`dur_27`): one row carries everything a
 *   report reads of its key and day. A UTC hour counts in the local day in
 *   which it starts (as report_hourly's are read). Beside the exact keys it
 *   holds the whole cube: every combination of dimensions left out (-1),
 *   eight rows per chat, so a report filtering or grouping by up to two
 *   dimensions reads a few rows a day.
 * - `report_daily_zones`: per account, the zone of its daily rows and how far
 *   they are built (`built_through`: rows cover the UTC hours before it;
 *   null: all of them). The rows are built (and rebuilt when the account's
 *   zone changes) from the hourly rollups by a worker, a few weeks per
 *   transaction (domain/reports/dailyRollup.ts); until then reports read hours.
 *
 * Indexes: the primary key serves equality on channel and department and a
 * range of days (the agent read inside it); the second index equality on
 * department and agent (per-channel figures).
 *
 * The bin count (28) is frozen here like migration 015's edges.
 */
import { type CreateTableBuilder } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';
import { REPORT_MEASURES } from './frozenParts.js';

const BINS = 28;

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('report_daily_zones')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('built_through', k.time)
    .execute();

  let daily: CreateTableBuilder<string, string> = db.schema
    .createTable('report_daily')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('department_id', 'integer', (c) => c.notNull())
    .addColumn('agent_id', 'integer', (c) => c.notNull());
  for (const col of REPORT_MEASURES) daily = daily.addColumn(col, k.time, (c) => c.notNull().defaultTo(0));
  for (const metric of ['frt', 'dur'])
    for (let bin = 0; bin < BINS; bin++) daily = daily.addColumn(`${metric}_${bin}`, 'integer', (c) => c.notNull().defaultTo(0));
  await daily.addPrimaryKeyConstraint('report_daily_pk', ['account_id', 'channel_id', 'department_id', 'day', 'agent_id']).execute();
  await db.schema.createIndex('report_daily_by_channel').on('report_daily').columns(['account_id', 'department_id', 'agent_id', 'day', 'channel_id']).execute();
}
