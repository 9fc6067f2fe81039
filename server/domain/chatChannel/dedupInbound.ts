/**
 * Idempotency of the chat channel: a message is dropped as a retry only when
 * it certainly is one. The spec's message.id is "visible only in logs;
 * reserved for future delivery/read notification", and real clients reuse it
 * (a Telegram bridge sends one id on every message), so a repeat of
 * (channel, sender, message.id, content) is a retry only
 *
 * - within DEDUP_WINDOW_MS of the first sighting (a customer system's retry
 *   horizon: minutes, not a day),
 * - while the chat of the message it repeats is still open (a repeat never
 *   reaches across a finished chat, nor past an erased message), and
 * - from a sender whose ids are identifiers: once one of its message.ids came
 *   with two different contents, the sender is marked
 *   (`visitors.inbound_ids_reused`) and its ids never drop anything again.
 *
 * One row per (channel, sender, message.id) holds the content last seen with
 * it. The claim is one insert guarded by that primary key, renewed in place
 * when the sighting is not a retry, so concurrent duplicates still store one
 * message (the second waits for the first's row and sees it linked).
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import type { NormalizedMessage } from '../messages/normalizeMessage.js';

export const DEDUP_WINDOW_MS = 10 * 60 * 1000;

export interface DedupKey {
  accountId: number;
  channelId: number;
  senderId: string;
  messageId: string;
  contentHash: string;
}

/** What a sighting is: a new message, a retry (answered 200, not stored again), or a new message whose id the sender reused. */
export type Claim = 'new' | 'retry' | 'reused';

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
 * On a conflict the row is renewed (not a retry) unless the sighting repeats
 * the row's content, within the window, of a message whose chat is open. The
 * subquery runs on a conflict only: a message with a fresh id costs the insert
 * alone. `reused` says whether the renewed row's content differed.
 */
const RENEW = sql`on conflict (channel_id, sender_id, message_external_id)
  do update set content_hash = excluded.content_hash, message_id = null, created_at = excluded.created_at,
    reused = case when inbound_dedup.content_hash = excluded.content_hash then 0 else 1 end
  where not (inbound_dedup.content_hash = excluded.content_hash
    and inbound_dedup.created_at >= excluded.created_at - ${DEDUP_WINDOW_MS}
    and exists (select 1 from messages m join chats c on c.id = m.chat_id where m.id = inbound_dedup.message_id and c.status <> 'finished'))`;

const claimOf = (row: { reused: number | string } | undefined): Claim => (row === undefined ? 'retry' : Number(row.reused) === 1 ? 'reused' : 'new');

/** Claims one sighting (see the rule above). */
export async function claimInbound(tx: Tx, key: DedupKey, now: number): Promise<Claim> {
  const { rows } = await sql<{ reused: number }>`insert into inbound_dedup
      (account_id, channel_id, sender_id, message_external_id, content_hash, message_id, reused, created_at)
    values (${key.accountId}, ${key.channelId}, ${key.senderId}, ${key.messageId}, ${key.contentHash}, null, 0, ${now})
    ${RENEW}
    returning reused`.execute(tx);
  return claimOf(rows[0]);
}

/** Marks the sender whose message.id came with other content: from now on its ids drop nothing. */
export async function markIdsReused(tx: Tx, senders: Array<{ channelId: number; senderId: string }>): Promise<void> {
  for (const { channelId, senderId } of senders)
    await tx
      .updateTable('visitors')
      .set({ inbound_ids_reused: 1 })
      .where('channel_id', '=', channelId)
      .where('external_id', '=', senderId)
      .where('inbound_ids_reused', '=', 0)
      .execute();
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

/** The keys a batch claims: distinct rows (channel, sender, message.id), each with the time of its own job. */
export interface TimedDedupKey extends DedupKey {
  now: number;
}

/** A key's row, as a string: (channel, sender, message.id); the content is the row's value, not its key. */
export const dedupKeyString = (k: Pick<DedupKey, 'channelId' | 'senderId' | 'messageId'>): string => JSON.stringify([k.channelId, k.senderId, k.messageId]);

/**
 * claimInbound for several keys of distinct rows in one statement: each key's
 * claim (by dedupKeyString), by the rule of claimInbound with its own `now`.
 * The caller passes each row once (PostgreSQL refuses a statement that would
 * update one row twice).
 */
export async function claimInboundMany(tx: Tx, keys: TimedDedupKey[]): Promise<Map<string, Claim>> {
  if (keys.length === 0) return new Map();
  const rows = isPostgres(tx)
    ? (
        await sql<ClaimedRow>`insert into inbound_dedup (account_id, channel_id, sender_id, message_external_id, content_hash, message_id, reused, created_at)
          select k.account_id, k.channel_id, k.sender_id, k.message_external_id, k.content_hash, null, 0, k.created_at
          from unnest(cast(${keys.map((k) => k.accountId)} as integer[]), cast(${keys.map((k) => k.channelId)} as integer[]),
            cast(${keys.map((k) => k.senderId)} as text[]), cast(${keys.map((k) => k.messageId)} as text[]),
            cast(${keys.map((k) => k.contentHash)} as text[]), cast(${keys.map((k) => k.now)} as bigint[]))
            as k(account_id, channel_id, sender_id, message_external_id, content_hash, created_at)
          ${RENEW}
          returning channel_id, sender_id, message_external_id, reused`.execute(tx)
      ).rows
    : (
        await sql<ClaimedRow>`insert into inbound_dedup (account_id, channel_id, sender_id, message_external_id, content_hash, message_id, reused, created_at)
          select k.value ->> 0, k.value ->> 1, k.value ->> 2, k.value ->> 3, k.value ->> 4, null, 0, k.value ->> 5
          from json_each(${JSON.stringify(keys.map((k) => [k.accountId, k.channelId, k.senderId, k.messageId, k.contentHash, k.now]))}) k
          where true
          ${RENEW}
          returning channel_id, sender_id, message_external_id, reused`.execute(tx)
      ).rows;
  const claimed = new Map(
    rows.map((r) => [dedupKeyString({ channelId: Number(r.channel_id), senderId: r.sender_id, messageId: r.message_external_id }), claimOf(r)]),
  );
  return new Map(keys.map((k) => [dedupKeyString(k), claimed.get(dedupKeyString(k)) ?? 'retry']));
}

interface ClaimedRow {
  channel_id: number;
  sender_id: string;
  message_external_id: string;
  reused: number;
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
