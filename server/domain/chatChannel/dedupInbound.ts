/**
 * Idempotency of the chat channel: the same message.id from the same sender
 * within 24 h is answered 200 and stored once. The claim is an insert into
 * inbound_dedup guarded by its primary key, so concurrent duplicates also
 * store one message.
 */
import type { Tx } from '../../db/database.js';

export const DEDUP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * true when this (channel, sender, message.id) is new or its last sighting is
 * older than 24 h. One statement: a key inserted, or renewed in place when it
 * has expired. (Two statements, an insert then an update of an expired key,
 * would treat a key the retention worker deleted between them as a duplicate.)
 */
export async function claimInbound(tx: Tx, key: { accountId: number; channelId: number; senderId: string; messageId: string }, now: number): Promise<boolean> {
  const claimed = await tx
    .insertInto('inbound_dedup')
    .values({
      account_id: key.accountId,
      channel_id: key.channelId,
      sender_id: key.senderId,
      message_external_id: key.messageId,
      message_id: null,
      created_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['channel_id', 'sender_id', 'message_external_id'])
        .doUpdateSet({ created_at: now, message_id: null })
        .where('inbound_dedup.created_at', '<', now - DEDUP_WINDOW_MS),
    )
    .returning('channel_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function linkInbound(tx: Tx, key: { channelId: number; senderId: string; messageId: string }, storedId: number): Promise<void> {
  await tx
    .updateTable('inbound_dedup')
    .set({ message_id: storedId })
    .where('channel_id', '=', key.channelId)
    .where('sender_id', '=', key.senderId)
    .where('message_external_id', '=', key.messageId)
    .execute();
}
