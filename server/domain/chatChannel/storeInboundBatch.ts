/**
 * A group-commit batch of chat-channel messages in as few statements as the
 * store allows. One message alone takes five (visitor, open chat, message,
 * sequence number, event). Here:
 *
 *   1. touch (and lock) every visitor of the batch, read back as they are now;
 *   2. read their open chats (a statement of its own, after the locks: a chat
 *      another transaction opened while we waited is seen);
 *   3. the message.ids of the common messages (a known visitor whose details
 *      did not change, not blacklisted, an open chat) claimed, all at once;
 *      then the messages not found duplicate, taking ids;
 *   4. the chats' sequence numbers moved on, and the events;
 *   5. the claimed message.ids linked to their messages, all at once.
 *
 * On PostgreSQL, where each statement is a round trip, that is four statements
 * for the whole batch (six when some carry a message.id). On SQLite (no round
 * trips, no arrays) 1, 2, 3's claim, 5 and each chat's sequence are one
 * statement each, messages and events one per row.
 *
 * Every other job (a new visitor, changed details, typing, …) is
 * written by storeInbound, exactly as alone; all jobs of one visitor take the
 * same path, in arrival order. The common messages follow the one rule of a
 * visitor's message (messages/visitorMessage.ts) through its pieces. What is written is what storeInbound would
 * write for the same jobs in the same order (storeInboundBatch.test.ts).
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Chat, Message, Visitor } from '../../db/schema.js';
import { insertEventRow, payloadJson, takeSeqs } from '../../events/outbox.js';
import { messageCreatedPayload } from '../chats/chatEvents.js';
import { insertMessageRow, type MessageRow } from '../messages/insertMessage.js';
import { reachesAgents, visitorMessageRow } from '../messages/visitorMessage.js';
import { changes } from '../visitors/upsertVisitor.js';
import { claimInboundMany, dedupKeyString, linkInboundMany, type DedupKey, type TimedDedupKey } from './dedupInbound.js';
import { dedupKeyOf, senderDetails, storeInbound, type InboundJob, type InboundOutcome } from './storeInbound.js';

export async function storeInboundBatch(tx: Tx, jobs: InboundJob[]): Promise<InboundOutcome[]> {
  const outcomes = new Array<InboundOutcome>(jobs.length);
  const groups = byVisitor(jobs);
  const visitors = await touchVisitors(
    tx,
    [...groups.values()].map((indexes) => jobs[indexes[0]]),
    Math.max(...jobs.map((j) => j.now)),
  );
  const openChats = await openChatsOf(
    tx,
    [...visitors.values()].map((v) => v.id),
  );

  const common: Array<{ index: number; chat: OpenChat }> = [];
  for (const [key, indexes] of groups) {
    const visitor = visitors.get(key);
    const chat = visitor && openChats.get(visitor.id);
    if (visitor && chat && indexes.every((i) => isCommon(jobs[i], visitor))) {
      for (const index of indexes) common.push({ index, chat });
    } else {
      // A visitor the touch did not find: its first job skips looking for it again.
      for (const index of indexes) outcomes[index] = await storeInbound(tx, jobs[index], !visitor && index === indexes[0]);
    }
  }
  const toStore = await claimAll(tx, jobs, common, outcomes);
  if (toStore.length > 0) {
    const ids = await storeMessages(
      tx,
      toStore.map(({ index, chat }) => ({ chat, row: rowOf(jobs[index], chat) })),
    );
    for (const { index } of toStore) outcomes[index] = 'stored';
    await linkInboundMany(
      tx,
      toStore.flatMap(({ key }, i) => (key ? [{ key, storedId: ids[i] }] : [])),
    );
  }
  return outcomes;
}

/**
 * 3a. The common messages that carry a message.id claim their keys, all in one
 * statement, by the rule of claimInbound: a key already claimed (within 24 h),
 * or claimed earlier in this batch, is a duplicate (answered so, not stored).
 * What is left, in job order, is stored.
 */
async function claimAll(
  tx: Tx,
  jobs: InboundJob[],
  common: Array<{ index: number; chat: OpenChat }>,
  outcomes: InboundOutcome[],
): Promise<Array<{ index: number; chat: OpenChat; key: DedupKey | null }>> {
  const keyed = common.map((c) => ({ ...c, key: dedupKeyOf(jobs[c.index]) }));
  const first = new Map<string, TimedDedupKey>();
  const repeated = new Set<number>();
  for (const { index, key } of keyed) {
    if (!key) continue;
    const k = dedupKeyString(key);
    if (first.has(k)) repeated.add(index);
    else first.set(k, { ...key, now: jobs[index].now });
  }
  if (first.size === 0) return keyed;
  const claimed = await claimInboundMany(tx, [...first.values()]);
  return keyed.filter(({ index, key }) => {
    if (!key) return true;
    if (!repeated.has(index) && claimed.has(dedupKeyString(key))) return true;
    outcomes[index] = 'duplicate';
    return false;
  });
}

const keyOf = (channelId: number, senderId: string): string => `${channelId}\n${senderId}`;

/**
 * Only the columns the batch reads: a row's columns each cost the driver an
 * object property (on SQLite, returning the whole visitor row took 149 µs for
 * 17 visitors against 88 µs for these).
 */
const VISITOR_COLUMNS = ['id', 'channel_id', 'external_id', 'blacklisted', 'name', 'phone', 'email', 'photo', 'url', 'invite', 'description'] as const;
type BatchVisitor = Pick<Visitor, (typeof VISITOR_COLUMNS)[number]>;
const CHAT_COLUMNS = ['id', 'account_id', 'channel_id', 'visitor_id'] as const;
type OpenChat = Pick<Chat, (typeof CHAT_COLUMNS)[number]>;
/** As SQL, for the statements written by hand (PostgreSQL). */
const columnList = (table: string, columns: readonly string[]) => sql.raw(columns.map((c) => `${table}.${c}`).join(', '));

function byVisitor(jobs: InboundJob[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  jobs.forEach((job, i) => {
    const key = keyOf(job.channel.id, job.req.sender.id);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  return groups;
}

/** A message storeInbound would store in the open chat with nothing else written but its dedup key: no new visitor, detail or other event. */
function isCommon(job: InboundJob, visitor: BatchVisitor): boolean {
  const { req } = job;
  return req.kind === 'message' && reachesAgents(visitor) && Object.keys(changes(senderDetails(req), visitor)).length === 0;
}

function rowOf(job: InboundJob, chat: OpenChat): MessageRow {
  if (job.req.kind !== 'message') throw new Error('storeInboundBatch: only messages are stored together');
  return visitorMessageRow(chat, job.req.message, job.now);
}

/** 1. The visitors of these jobs (one job each) that exist, touched (so locked until commit) and read back, by channel and sender id. */
async function touchVisitors(tx: Tx, jobs: InboundJob[], now: number): Promise<Map<string, BatchVisitor>> {
  const channelIds = jobs.map((j) => j.channel.id);
  const externalIds = jobs.map((j) => j.req.sender.id);
  const rows = isPostgres(tx)
    ? (await touchVisitorsQuery(channelIds, externalIds, now).execute(tx)).rows
    : await touchVisitorsSqlite.execute(tx, { keys: JSON.stringify(jobs.map((_, i) => [channelIds[i], externalIds[i]])), now });
  return new Map(rows.map((v) => [keyOf(v.channel_id, v.external_id), v]));
}

/** Through the unique index visitors_channel_external (db/hotPathPlans.test.ts). */
export const touchVisitorsQuery = (channelIds: number[], externalIds: string[], now: number) =>
  sql<BatchVisitor>`update visitors set updated_at = ${now}
    from unnest(cast(${channelIds} as integer[]), cast(${externalIds} as text[])) as k(channel_id, external_id)
    where visitors.channel_id = k.channel_id and visitors.external_id = k.external_id
    returning ${columnList('visitors', VISITOR_COLUMNS)}`;

/** SQLite: the keys as a JSON array of [channel_id, external_id] pairs (one statement text whatever their number). */
export const touchVisitorsSqlite = prepared(['now', 'keys'], (db, p: { keys: string; now: number }) =>
  db
    .updateTable('visitors')
    .set({ updated_at: p.now })
    .where('id', 'in', sql<number>`(select v.id from json_each(${p.keys}) k join visitors v on v.channel_id = k.value ->> 0 and v.external_id = k.value ->> 1)`)
    .returning(VISITOR_COLUMNS),
);

/** 2. The open chat of each visitor (the newest not finished). */
async function openChatsOf(tx: Tx, visitorIds: number[]): Promise<Map<number, OpenChat>> {
  if (visitorIds.length === 0) return new Map();
  const rows = isPostgres(tx)
    ? (await openChatsQuery(visitorIds).execute(tx)).rows
    : await openChatsSqlite.execute(tx, { visitorIds: JSON.stringify(visitorIds) });
  return new Map(rows.map((c) => [c.visitor_id, c]));
}

/** SQLite: the newest open chat of each visitor id of a JSON array, through chats_visitor_open, then each row by its key. */
export const openChatsSqlite = prepared(['visitorIds'], (db, p: { visitorIds: string }) =>
  db
    .selectFrom('chats')
    .select(CHAT_COLUMNS)
    .where(
      'id',
      'in',
      sql<number>`(select max(id) from chats where visitor_id in (select value from json_each(${p.visitorIds})) and "status" <> 'finished' group by visitor_id)`,
    ),
);

/** Through the partial index chats_visitor_open, its condition spelled as a literal (db/hotPathPlans.test.ts). */
export const openChatsQuery = (visitorIds: number[]) =>
  sql<OpenChat>`select distinct on (visitor_id) ${columnList('chats', CHAT_COLUMNS)} from chats
    where visitor_id = any(cast(${visitorIds} as integer[])) and "status" <> 'finished'
    order by visitor_id, id desc`;

/**
 * 3–4. The messages, then one message.created event each, as insertMessage and
 * recordMessageCreated write them, in two statements. The first takes the
 * messages' ids as it inserts them and returns them in job order, so each
 * event can carry its message. Event ids are not taken ahead: the relay relies
 * on an event's id being taken by the insert that writes its row
 * (events/relayClaim.ts). The second moves each chat's sequence on by its
 * number of messages and inserts the events in job order (ORDER BY the array
 * position), so their ids ascend as their sequence numbers do within a chat.
 */
async function storeMessages(tx: Tx, items: Array<{ chat: OpenChat; row: MessageRow }>): Promise<number[]> {
  if (!isPostgres(tx)) return storeMessagesSqlite(tx, items);
  const column = <K extends keyof MessageRow>(k: K) => items.map(({ row }) => row[k]);
  const ids = await sql<{ id: number }>`with input as (
      select nextval(pg_get_serial_sequence('messages', 'id')) as id, u.*
      from unnest(cast(${column('account_id')} as integer[]), cast(${column('chat_id')} as integer[]),
        cast(${column('author')} as text[]), cast(${column('agent_id')} as integer[]), cast(${column('type')} as text[]), cast(${column('text')} as text[]),
        cast(${column('file')} as text[]), cast(${column('file_name')} as text[]), cast(${column('file_size')} as bigint[]), cast(${column('thumb')} as text[]),
        cast(${column('latitude')} as double precision[]), cast(${column('longitude')} as double precision[]), cast(${column('extra_json')} as text[]),
        cast(${column('external_id')} as text[]), cast(${column('internal')} as integer[]), cast(${column('suppressed')} as integer[]),
        cast(${column('delivery_status')} as text[]), cast(${column('delivery_error')} as text[]), cast(${column('created_at')} as bigint[]))
        with ordinality as u(account_id, chat_id, author, agent_id, type, text, file, file_name, file_size, thumb, latitude, longitude,
          extra_json, external_id, internal, suppressed, delivery_status, delivery_error, created_at, position)
    ), inserted as (
      insert into messages (id, account_id, chat_id, author, agent_id, type, text, file, file_name, file_size, thumb,
        latitude, longitude, extra_json, external_id, internal, suppressed, delivery_status, delivery_error, created_at)
      select id, account_id, chat_id, author, agent_id, type, text, file, file_name, file_size, thumb,
        latitude, longitude, extra_json, external_id, internal, suppressed, delivery_status, delivery_error, created_at
      from input
    )
    select id from input order by position`.execute(tx);
  if (ids.rows.length !== items.length) throw new Error('storeInboundBatch: message ids missing');
  const messages: Message[] = items.map(({ row }, i) => ({ id: Number(ids.rows[i].id), ...row }));

  // Each chat's messages take the next sequence numbers in job order: k = 1, 2, … within the chat.
  const perChat = new Map<number, number>();
  const events = items.map(({ chat }, i) => {
    const k = (perChat.get(chat.id) ?? 0) + 1;
    perChat.set(chat.id, k);
    return { chat, k, data_json: payloadJson('message.created', messageCreatedPayload(messages[i])), created_at: messages[i].created_at };
  });
  const inserted = await sql<{ id: number }>`with bumped as (
      update chats set last_seq = chats.last_seq + v.n
      from unnest(cast(${[...perChat.keys()]} as integer[]), cast(${[...perChat.values()]} as integer[])) as v(id, n)
      where chats.id = v.id
      returning chats.id, chats.last_seq - v.n as base
    )
    insert into events (account_id, type, chat_id, channel_id, seq, data_json, created_at)
    select e.account_id, 'message.created', e.chat_id, e.channel_id, b.base + e.k, e.data_json, e.created_at
    from unnest(cast(${events.map((e) => e.chat.account_id)} as integer[]), cast(${events.map((e) => e.chat.id)} as integer[]),
      cast(${events.map((e) => e.chat.channel_id)} as integer[]), cast(${events.map((e) => e.k)} as integer[]),
      cast(${events.map((e) => e.data_json)} as text[]), cast(${events.map((e) => e.created_at)} as bigint[]))
      with ordinality as e(account_id, chat_id, channel_id, k, data_json, created_at, position)
    join bumped b on b.id = e.chat_id
    order by e.position
    returning id`.execute(tx);
  if (inserted.rows.length !== items.length) throw new Error('storeInboundBatch: a chat of the batch is gone');
  return messages.map((m) => m.id);
}

/** SQLite, one writer: each chat's sequence moved on once, then the rows one by one, as alone. */
async function storeMessagesSqlite(tx: Tx, items: Array<{ chat: OpenChat; row: MessageRow }>): Promise<number[]> {
  const ids: number[] = [];
  const perChat = new Map<number, number>();
  for (const { chat } of items) perChat.set(chat.id, (perChat.get(chat.id) ?? 0) + 1);
  const next = new Map<number, number>();
  for (const [chatId, n] of perChat) next.set(chatId, await takeSeqs(tx, chatId, n));
  for (const { chat, row } of items) {
    const message = await insertMessageRow(tx, row);
    ids.push(message.id);
    const seq = next.get(chat.id)!;
    next.set(chat.id, seq + 1);
    await insertEventRow(tx, {
      account_id: chat.account_id,
      type: 'message.created',
      chat_id: chat.id,
      channel_id: chat.channel_id,
      seq,
      data: messageCreatedPayload(message),
      created_at: message.created_at,
    });
  }
  return ids;
}
