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
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';
import { remakeInboundDedup } from './frozenParts.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await remakeInboundDedup(db, k, ['channel_id', 'sender_id', 'message_external_id', 'content_hash']);
}
