/**
 * Visitors' uploads are tracked (#15 item 8), so they cannot fill the disk:
 * one row per stored file under DATA_DIR/uploads, with its size (the account's
 * storage quota, UPLOAD_QUOTA_MB, sums them) and the message it was attached
 * to. `message_id` is null until a visitor's message carries the file, and
 * becomes null again when that message is deleted (its channel deleted, say):
 * the upload sweeper (server/retention/uploadSweeper.ts) deletes the files of
 * rows without a message once they are an hour old, then the rows.
 *
 * Only `message_id` has a foreign key (ON DELETE SET NULL). `account_id`,
 * `channel_id` and `visitor_id` say where the file came from and have none on
 * purpose: a cascade would drop the row and leave its file on disk with
 * nothing pointing at it, and on PostgreSQL several SET NULL actions reaching
 * one row from one statement (a channel deleted with its visitors and
 * messages) fail ("tuple to be updated was already modified"). Files
 * uploaded before this migration have no row: they are served as before and
 * never swept (nothing says whether a message uses them).
 */
import { sql } from 'kysely';
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer')
    .addColumn('visitor_id', 'integer')
    .addColumn('size', k.time, (c) => c.notNull())
    .addColumn('message_id', 'integer', (c) => c.references('messages.id').onDelete('set null'))
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  // The quota's sum: an index-only scan of the account's sizes.
  await db.schema.createIndex('uploads_account_size').on('uploads').columns(['account_id', 'size']).execute();
  // The sweeper's lookup: unattached uploads, oldest first.
  await db.schema.createIndex('uploads_unattached').on('uploads').column('created_at').where(sql.ref('message_id'), 'is', null).execute();
  // SET NULL from a deleted message finds its uploads by this index.
  await db.schema.createIndex('uploads_message_id').on('uploads').column('message_id').execute();
}
