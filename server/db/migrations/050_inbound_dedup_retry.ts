/**
 * The chat channel's duplicate rule, round 3 (#32 item 1): a message is
 * dropped as a retry only when it certainly is one. A real Telegram bridge
 * sends one message.id on every message, so (sender, message.id, content)
 * seen within 24 h dropped the user's second "да" and a second dialog's first
 * messages. Now (domain/chatChannel/dedupInbound.ts):
 *
 * - one row per (channel, sender, message.id), holding the content last seen
 *   with it: the same id with other content marks the sender as one whose ids
 *   are no identifiers (`visitors.inbound_ids_reused`), and from then on its
 *   ids never drop anything;
 * - a repeat is a retry only while the chat of the message it repeats is open,
 *   and only within minutes (DEDUP_WINDOW_MS), not a day.
 *
 * A primary key cannot be changed in place on SQLite, so the table is made
 * anew on both stores; its keys matter for minutes, so none is carried over.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';
import { remakeInboundDedup } from './frozenParts.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await remakeInboundDedup(db, k, ['channel_id', 'sender_id', 'message_external_id'], (t) =>
    // 1 when this sighting's content differs from the one the row held: the id was reused.
    t.addColumn('reused', 'integer', (c) => c.notNull().defaultTo(0)),
  );
  await db.schema
    .alterTable('visitors')
    .addColumn('inbound_ids_reused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
