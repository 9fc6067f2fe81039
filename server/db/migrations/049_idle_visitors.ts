/**
 * Indexes for expiring anonymous widget visitors (retention/pruneVisitors.ts,
 * #31 item 11): every widget session start without a known token makes a
 * visitor, and most never chat.
 *
 * - visitors_anonymous_created: widget visitors (token_hash set) without a
 *   chat counted, by created_at, so a batch reads the oldest candidates
 *   only, not every visitor that ever chatted. created_at, not updated_at:
 *   updated_at changes at every message and session, and an index on it
 *   would cost those updates (on PostgreSQL, their HOT updates); the pass
 *   filters updated_at on the few candidates instead.
 * - offline_messages_visitor: whether a visitor left an offline message, one
 *   index probe (offline_messages had no index on visitor_id).
 *
 * Calls (calls_visitor_status) and chats (chats_visitor) were indexed by
 * visitor already.
 */
import { sql } from 'kysely';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('visitors_anonymous_created')
    .on('visitors')
    .column('created_at')
    .where(sql.ref('token_hash'), 'is not', null)
    .where(sql.ref('chats_count'), '=', sql.lit(0))
    .execute();
  await db.schema.createIndex('offline_messages_visitor').on('offline_messages').column('visitor_id').where(sql.ref('visitor_id'), 'is not', null).execute();
}
