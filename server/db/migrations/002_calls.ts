/**
 * Callback calls (issue 7): when the call first connected, how many seconds it
 * lasted (charged against the callback balance on end), which provider placed
 * it, and an index for "does this visitor already have an active call".
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('calls').addColumn('connected_at', k.time).execute();
  await db.schema.alterTable('calls').addColumn('duration_seconds', 'integer').execute();
  await db.schema.alterTable('calls').addColumn('provider', 'text').execute();
  await db.schema.createIndex('calls_visitor_status').on('calls').columns(['visitor_id', 'status']).execute();
}
