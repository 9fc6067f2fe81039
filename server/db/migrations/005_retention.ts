/**
 * What the retention worker (server/retention/) needs to delete old rows in
 * small batches without reading whole tables:
 *
 * - `inbound_dedup_created_at`: the chat channel's dedup rows are found by
 *   age (the primary key starts with the channel, so age alone would scan it).
 *   Rows arrive in time order, so the index only ever grows at its right edge.
 * - `deliveries_open_event`: an event is kept while a pending or paused
 *   delivery names it. Partial, so it holds only the open rows (a handful
 *   unless an endpoint is paused); finished rows leave it.
 * - `event_retention`: per account, the newest event id retention deleted. A
 *   socket resuming from an older cursor missed events that are gone, and is
 *   told so (realtime/feed.ts) instead of replaying a silent hole.
 *
 * Events themselves need no index: ids grow with time, so the worker walks the
 * primary key from the oldest row. Finished deliveries are found through
 * `deliveries_due` (status, next_attempt_at): finishing sets next_attempt_at
 * to the time it finished.
 *
 * As in 004, a query that uses the partial index spells its condition with
 * the same literals (`status in ('pending', 'paused')`).
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.createIndex('inbound_dedup_created_at').on('inbound_dedup').column('created_at').execute();
  await db.schema
    .createIndex('deliveries_open_event')
    .on('deliveries')
    .column('event_id')
    .where(sql<boolean>`status in ('pending', 'paused')`)
    .execute();
  await db.schema
    .createTable('event_retention')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('deleted_through', 'integer', (c) => c.notNull())
    .execute();
}
