/**
 * Idempotency of the chat channel: the same message.id from the same sender
 * within 24 h is answered 200 and stored once. The claim is an insert into
 * inbound_dedup guarded by its primary key, so concurrent duplicates also
 * store one message.
 */
import type { Tx } from '../../db/database.js';

export const DEDUP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** true when this (channel, sender, message.id) is new or its last sighting is older than 24 h. */
export async function claimInbound(
  tx: Tx,
  key: { accountId: number; channelId: number; senderId: string; messageId: string },
  now: number,
): Promise<boolean> {
  const inserted = await tx
    .insertInto('inbound_dedup')
    .values({
      account_id: key.accountId,
      channel_id: key.channelId,
      sender_id: key.senderId,
      message_external_id: key.messageId,
      message_id: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['channel_id', 'sender_id', 'message_external_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  const renewed = await tx
    .updateTable('inbound_dedup')
    .set({ created_at: now, message_id: null })
    .where('channel_id', '=', key.channelId)
    .where('sender_id', '=', key.senderId)
    .where('message_external_id', '=', key.messageId)
    .where('created_at', '<', now - DEDUP_WINDOW_MS)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) > 0;
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
