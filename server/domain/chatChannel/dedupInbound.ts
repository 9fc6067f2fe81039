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
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
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

/** The keys a batch claims: distinct keys, each with the time of its own job. */
export interface TimedDedupKey extends DedupKey {
  now: number;
}

const keyString = (k: Pick<DedupKey, 'channelId' | 'senderId' | 'messageId' | 'contentHash'>): string =>
  JSON.stringify([k.channelId, k.senderId, k.messageId, k.contentHash]);
export const dedupKeyString = keyString;

/**
 * claimInbound for several distinct keys in one statement: the set of the keys
 * claimed (as dedupKeyString), each by the rule of claimInbound with its own
 * `now`. The caller passes each key once (PostgreSQL refuses a statement that
 * would update one row twice; a repeat within a batch is a duplicate anyway).
 */
export async function claimInboundMany(tx: Tx, keys: TimedDedupKey[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = isPostgres(tx)
    ? (
        await sql<ClaimedRow>`insert into inbound_dedup (account_id, channel_id, sender_id, message_external_id, content_hash, message_id, created_at)
          select k.account_id, k.channel_id, k.sender_id, k.message_external_id, k.content_hash, null, k.created_at
          from unnest(cast(${keys.map((k) => k.accountId)} as integer[]), cast(${keys.map((k) => k.channelId)} as integer[]),
            cast(${keys.map((k) => k.senderId)} as text[]), cast(${keys.map((k) => k.messageId)} as text[]),
            cast(${keys.map((k) => k.contentHash)} as text[]), cast(${keys.map((k) => k.now)} as bigint[]))
            as k(account_id, channel_id, sender_id, message_external_id, content_hash, created_at)
          on conflict (channel_id, sender_id, message_external_id, content_hash)
          do update set created_at = excluded.created_at, message_id = null
          where inbound_dedup.created_at < excluded.created_at - ${DEDUP_WINDOW_MS}
          returning channel_id, sender_id, message_external_id, content_hash`.execute(tx)
      ).rows
    : (
        await sql<ClaimedRow>`insert into inbound_dedup (account_id, channel_id, sender_id, message_external_id, content_hash, message_id, created_at)
          select k.value ->> 0, k.value ->> 1, k.value ->> 2, k.value ->> 3, k.value ->> 4, null, k.value ->> 5
          from json_each(${JSON.stringify(keys.map((k) => [k.accountId, k.channelId, k.senderId, k.messageId, k.contentHash, k.now]))}) k
          where true
          on conflict (channel_id, sender_id, message_external_id, content_hash)
          do update set created_at = excluded.created_at, message_id = null
          where inbound_dedup.created_at < excluded.created_at - ${DEDUP_WINDOW_MS}
          returning channel_id, sender_id, message_external_id, content_hash`.execute(tx)
      ).rows;
  return new Set(
    rows.map((r) => keyString({ channelId: Number(r.channel_id), senderId: r.sender_id, messageId: r.message_external_id, contentHash: r.content_hash })),
  );
}

interface ClaimedRow {
  channel_id: number;
  sender_id: string;
  message_external_id: string;
  content_hash: string;
}

/** linkInbound for several keys in one statement. */
export async function linkInboundMany(tx: Tx, links: Array<{ key: DedupKey; storedId: number }>): Promise<void> {
  if (links.length === 0) return;
  if (isPostgres(tx)) {
    await sql`update inbound_dedup set message_id = k.message_id
      from unnest(cast(${links.map((l) => l.key.channelId)} as integer[]), cast(${links.map((l) => l.key.senderId)} as text[]),
        cast(${links.map((l) => l.key.messageId)} as text[]), cast(${links.map((l) => l.key.contentHash)} as text[]),
        cast(${links.map((l) => l.storedId)} as integer[])) as k(channel_id, sender_id, message_external_id, content_hash, message_id)
      where inbound_dedup.channel_id = k.channel_id and inbound_dedup.sender_id = k.sender_id
        and inbound_dedup.message_external_id = k.message_external_id and inbound_dedup.content_hash = k.content_hash`.execute(tx);
    return;
  }
  await sql`update inbound_dedup set message_id = k.value ->> 4
    from json_each(${JSON.stringify(links.map(({ key, storedId }) => [key.channelId, key.senderId, key.messageId, key.contentHash, storedId]))}) k
    where inbound_dedup.channel_id = k.value ->> 0 and inbound_dedup.sender_id = k.value ->> 1
      and inbound_dedup.message_external_id = k.value ->> 2 and inbound_dedup.content_hash = k.value ->> 3`.execute(tx);
}
