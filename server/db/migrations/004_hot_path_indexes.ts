/**
 * Indexes shaped for the hot path (issue 8, found by profiling the chat channel):
 *
 * - `events`: the relay looks for unrelayed rows and marks them relayed. With
 *   `relayed` inside two indexes, every insert and every mark rewrote entries
 *   of both. Now a partial index holds only the unrelayed rows (a handful at
 *   any time), and the feed's per-account reads use `events_account_id`
 *   (account_id, id), filtering `relayed` on the few newest rows.
 * - `chats`: "the visitor's open chat" (`status <> 'finished'`, newest first)
 *   made SQLite sort in a temporary B-tree; a partial index answers it from
 *   one entry, and (visitor_id, id) serves "the visitor's last chat".
 *
 * Queries that use a partial index must spell its condition with literals
 * (`relayed = 0`, `status <> 'finished'`), not bound parameters, or SQLite
 * cannot prove the index applies.
 */
import { sql } from 'kysely';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('events_unrelayed').execute();
  await db.schema.dropIndex('events_account_relayed').execute();
  await db.schema.createIndex('events_pending_relay').on('events').column('id').where(sql.ref('relayed'), '=', sql.lit(0)).execute();

  await db.schema.dropIndex('chats_visitor').execute();
  await db.schema.createIndex('chats_visitor_id').on('chats').columns(['visitor_id', 'id']).execute();
  await db.schema.createIndex('chats_visitor_open').on('chats').columns(['visitor_id', 'id']).where(sql.ref('status'), '<>', sql.lit('finished')).execute();
}
