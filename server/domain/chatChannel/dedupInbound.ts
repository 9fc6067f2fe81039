/**
 * Idempotency of the chat channel: a retry (the same message.id from the same
 * sender with the same content) within 24 h is answered 200 and stored once.
 * The content is part of the key, so a message.id reused for a different
 * message is a new message and is stored: message.id never drops a message.
 * The claim is an insert into inbound_dedup guarded by its primary key, so
 * concurrent duplicates also store one message. Hashing costs no round trip:
 * the key stays one insert, as it was without the content.
 */
import { createHash } from 'node:crypto';
import type { Tx } from '../../db/database.js';
import type { NormalizedMessage } from '../messages/normalizeMessage.js';

export const DEDUP_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface DedupKey {
  accountId: number;
  channelId: number;
  senderId: string;
  messageId: string;
  contentHash: string;
}

/**
 * The message as Parley stores it (after cutting text at 1000 characters and
 * dropping bad optional fields), hashed: what a retry repeats exactly.
 * message.id itself is not part of it (it is a key column of its own).
 */
export function contentHash(m: NormalizedMessage): string {
  const content = [m.type, m.text, m.file, m.file_name, m.file_size, m.thumb, m.latitude, m.longitude, m.extra];
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 22);
}

/**
 * true when this (channel, sender, message.id, content) is new or its last
 * sighting is older than 24 h. One statement: a key inserted, or renewed in
 * place when it has expired. (Two statements, an insert then an update of an
 * expired key, would treat a key the retention worker deleted between them as
 * a duplicate.)
 */
export async function claimInbound(tx: Tx, key: DedupKey, now: number): Promise<boolean> {
  const claimed = await tx
    .insertInto('inbound_dedup')
    .values({
      account_id: key.accountId,
      channel_id: key.channelId,
      sender_id: key.senderId,
      message_external_id: key.messageId,
      content_hash: key.contentHash,
      message_id: null,
      created_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['channel_id', 'sender_id', 'message_external_id', 'content_hash'])
        .doUpdateSet({ created_at: now, message_id: null })
        .where('inbound_dedup.created_at', '<', now - DEDUP_WINDOW_MS),
    )
    .returning('channel_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function linkInbound(tx: Tx, key: DedupKey, storedId: number): Promise<void> {
  await tx
    .updateTable('inbound_dedup')
    .set({ message_id: storedId })
    .where('channel_id', '=', key.channelId)
    .where('sender_id', '=', key.senderId)
    .where('message_external_id', '=', key.messageId)
    .where('content_hash', '=', key.contentHash)
    .execute();
}
