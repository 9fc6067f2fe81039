/**
 * The chat channel's duplicate key includes the message's content (#17 item
 * 11): a retry (same sender, same message.id, same content) is stored once,
 * but a customer system that reuses a message.id for a different message has
 * it stored. `content_hash` is a hash of the message as Parley stores it
 * (domain/chatChannel/dedupInbound.ts) and joins the primary key.
 *
 * A primary key cannot be changed in place on SQLite, so the table is made
 * anew on both stores. The keys it held are not carried over (they carry no
 * content hash, and matter for 24 h only): a retry of a message sent before
 * the upgrade that arrives after it is stored a second time.
 */
import { timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.dropTable('inbound_dedup').execute();
  await db.schema
    .createTable('inbound_dedup')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('message_external_id', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('message_id', 'integer')
    .addColumn('created_at', k.time, timeColumn)
    .addPrimaryKeyConstraint('inbound_dedup_pk', ['channel_id', 'sender_id', 'message_external_id', 'content_hash'])
    .execute();
  await db.schema.createIndex('inbound_dedup_created_at').on('inbound_dedup').column('created_at').execute();
}
