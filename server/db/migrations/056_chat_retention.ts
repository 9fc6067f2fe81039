/**
 * Chat retention (#33, retention/pruneChats.ts, docs/DATA.md "Retention"):
 * `settings.retention_chats_days` (null: chats are kept forever), and an
 * index of finished chats by when they finished, so a pass (and the count
 * the settings page shows) reads only the chats past the cutoff.
 */
import { sql } from 'kysely';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('settings').addColumn('retention_chats_days', 'integer').execute();
  await db.schema
    .createIndex('chats_finished_at')
    .on('chats')
    .columns(['account_id', 'finished_at'])
    .where(sql.ref('status'), '=', sql.lit('finished'))
    .execute();
}
