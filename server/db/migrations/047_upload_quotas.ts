/**
 * Upload quotas per visitor and per channel, and files an administrator frees
 * (#31 item 3, docs/SECURITY.md §8): the quota check sums a visitor's and a
 * channel's upload sizes besides the account's, each by an index of its own
 * (an index-only scan, as uploads_account_size for the account). A message
 * whose file was freed (domain/uploads/freeUploads.ts) keeps its text, name
 * and size, and says when the file went (`file_removed_at`), so it stays
 * readable with the file shown as removed.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.createIndex('uploads_visitor_size').on('uploads').columns(['visitor_id', 'size']).execute();
  await db.schema.createIndex('uploads_channel_size').on('uploads').columns(['channel_id', 'size']).execute();
  await db.schema.alterTable('messages').addColumn('file_removed_at', k.time).execute();
}
