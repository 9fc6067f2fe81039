/**
 * The relay's position is one row, not a mark on every event (issue 8, found
 * by profiling the chat channel).
 *
 * Relayed events were always a prefix of the table in id order (see
 * events/relayClaim.ts), so "relayed" is fully described by the newest id of
 * that prefix. Marking each row cost a second write of every event (on SQLite
 * the row and the partial index rewritten; on PostgreSQL a row lock and then
 * a new row version with new entries in every index of `events`, all later
 * vacuumed). Now the relay reads the rows after `relay_cursor.relayed_through`
 * and moves that one number on, in the transaction of the batch.
 *
 * The cursor starts at the newest row already marked relayed; rows after it
 * are relayed by the next batch, as before.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('relay_cursor')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('relayed_through', 'integer', (c) => c.notNull())
    .addCheckConstraint('relay_cursor_one_row', sql`id = 1`)
    .execute();
  await sql`insert into relay_cursor (id, relayed_through) select 1, coalesce(max(id), 0) from events where relayed = 1`.execute(db);
  await db.schema.dropIndex('events_pending_relay').execute();
  await db.schema.alterTable('events').dropColumn('relayed').execute();
}
