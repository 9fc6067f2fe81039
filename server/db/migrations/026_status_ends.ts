/**
 * Reports (#22): time Online and Away without a window over a year of status
 * changes. Each agent_status_changes row gets `ended_at`, when the agent's
 * next change came (null while it is the agent's latest: the status still
 * holds). setAgentStatus sets it on the agent's open row in the transaction
 * that inserts the next one, so a report sums `ended_at - at` (clipped to the
 * range) with one aggregate instead of ordering every change of the range
 * per agent (domain/reports/statusTime.ts): a year-long /reports/agents on
 * SQLite spent most of its time there.
 *
 * Indexes: `agent_status_changes_spans` (account, agent, at, status,
 * ended_at) covers that aggregate (and the status in force at a range's
 * start); `agent_status_changes_open` (partial: ended_at is null) finds the
 * row to close.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

/** Sets `ended_at` of every row to the `at` of the agent's next change (by at, then id); also run by the reports benchmark after its bulk insert. */
export async function fillStatusEnds(db: AnyDb): Promise<void> {
  await sql`
    update agent_status_changes set ended_at = (
      select n.at from agent_status_changes n
      where n.agent_id = agent_status_changes.agent_id
        and (n.at > agent_status_changes.at or (n.at = agent_status_changes.at and n.id > agent_status_changes.id))
      order by n.at, n.id limit 1)`.execute(db);
}

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('agent_status_changes').addColumn('ended_at', k.time).execute();
  await fillStatusEnds(db);
  await db.schema
    .createIndex('agent_status_changes_spans')
    .on('agent_status_changes')
    .columns(['account_id', 'agent_id', 'at', 'status', 'ended_at'])
    .execute();
  await db.schema.createIndex('agent_status_changes_open').on('agent_status_changes').column('agent_id').where(sql.ref('ended_at'), 'is', null).execute();
}
