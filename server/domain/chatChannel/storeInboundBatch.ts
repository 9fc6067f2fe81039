/**
 * The chat channel's one writer: a group-commit batch of requests (one request
 * alone is a batch of one), in as few statements as the store allows. One
 * message alone takes five (visitor, open chat, message, sequence number,
 * event); a new sender's first message about ten (its number, visitor, chat,
 * chats count, chat.created, routing's settings, …). Here:
 *
 *   1. touch (and lock) every visitor of the batch, read back as they are now
 *      (one that only types is read: typing writes nothing on the visitor);
 *   2. read their open chats (a statement of its own, after the locks: a chat
 *      another transaction opened while we waited is seen), and, when the
 *      batch has new senders, their accounts' routing settings;
 *   3. the senders whose jobs are not common (typing, changed details, a
 *      blacklisted visitor, no open chat, a new sender with other jobs than
 *      messages alike) are written job by job, each as it would be alone,
 *      starting from what steps 1 and 2 read (storeEach);
 *   4. the message.ids of the common messages claimed, all at once: a known
 *      visitor's (details unchanged, not blacklisted, an open chat) and a new
 *      sender's (newSenders.ts: messages only, the same details on each);
 *   5. the new senders that still have a message to store: their chats'
 *      first offers picked when their account routes new chats (one statement
 *      per chat, routing/firstOffers.ts), their visitor numbers, visitors and
 *      chats (newSenders.ts), then the offers' rows;
 *   6. the messages, taking ids, then the events: each new chat's
 *      chat.created (and chat.offered), each message's message.created, with
 *      the chats' sequence numbers moved on (batchMessages.ts);
 *   7. the claimed message.ids linked to their messages, all at once.
 *
 * On PostgreSQL, where each statement is a round trip, that is about seven
 * statements for the whole batch, new senders or not, and one more per new
 * chat offered to an agent and one for all their offers. On SQLite (no round
 * trips) the numbers take one statement per account, each known chat's
 * sequence one, and the messages one per row; the rest one each.
 *
 * All jobs of one visitor take the same step, in arrival order. Every message
 * follows the one rule of a visitor's message (messages/visitorMessage.ts):
 * storeEach through writeVisitorMessage, the common ones through its pieces.
 * What a batch writes is what its jobs write one batch each, in the same order
 * (storeInboundBatch.test.ts, newSenders.test.ts); only the order between
 * visitors may differ (their messages arrived together), visitor numbers and
 * the agents their new chats are offered to included.
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { safeEqual } from '../../lib/ids.js';
import type { Chat, Visitor } from '../../db/schema.js';
import { recordEvent } from '../../events/outbox.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import type { MessageRow } from '../messages/insertMessage.js';
import { reachesAgents, visitorMessageRow, writeVisitorMessage } from '../messages/visitorMessage.js';
import { applyDetails, changes, createVisitor, type UpsertVisitorResult } from '../visitors/upsertVisitor.js';
import { storeMessages, type BatchChat } from './batchMessages.js';
import {
  claimInbound,
  claimInboundMany,
  dedupKeyString,
  linkInbound,
  linkInboundMany,
  markIdsReused,
  type DedupKey,
  type TimedDedupKey,
} from './dedupInbound.js';
import { firstOfferedPayload, insertFirstOffers, isOffered, pickFirstOffers } from '../routing/firstOffers.js';
import type { AccountRouting } from '../routing/routingConfig.js';
import { dedupKeyOf, pageOf, senderDetails, visitorInputOf, type InboundJob, type InboundOutcome } from './inboundJob.js';
import { accountRoutings, isPlainNewSender, openNewSenders, type OpenedChat } from './newSenders.js';

/** A message written together: to a known open chat, or (chat null) the first messages of the new sender of `group`. */
interface Together {
  index: number;
  chat: BatchChat | null;
  group: string;
}

/**
 * Writes the jobs in the caller's transaction, one outcome per job. `together:
 * false` writes every sender job by job (step 3), the rule the common jobs'
 * statements must agree with (the tests' reference).
 */
export async function storeInboundBatch(tx: Tx, jobs: InboundJob[], { together = true }: { together?: boolean } = {}): Promise<InboundOutcome[]> {
  const outcomes = new Array<InboundOutcome>(jobs.length);
  const groups = byVisitor(jobs);
  // A sender that only types is read, not touched: typing writes nothing on the visitor.
  const [writing, typing] = partition([...groups.values()], (indexes) => indexes.some((i) => jobs[i].req.kind === 'message'));
  const visitors = await touchVisitors(
    tx,
    writing.map((indexes) => jobs[indexes[0]]),
    Math.max(...jobs.map((j) => j.now)),
  );
  if (typing.length > 0)
    for (const [key, v] of await readVisitors(
      tx,
      typing.map((indexes) => jobs[indexes[0]]),
    ))
      visitors.set(key, v);
  const openChats = await openChatsOf(
    tx,
    [...visitors.values()].map((v) => v.id),
  );
  // New senders written together, with their accounts' routing (their chats' first offers).
  const plainNew = new Set(
    [...groups].filter(([key, indexes]) => together && !visitors.has(key) && isPlainNewSender(indexes.map((i) => jobs[i]))).map(([key]) => key),
  );
  const routings = await accountRoutings(
    tx,
    [...plainNew].map((key) => jobs[groups.get(key)![0]].channel.account_id),
  );

  const common: Together[] = [];
  for (const [group, indexes] of groups) {
    const visitor = visitors.get(group);
    const chat = visitor && openChats.get(visitor.id);
    if (together && visitor && chat && indexes.every((i) => isCommon(jobs[i], visitor))) {
      for (const index of indexes) common.push({ index, chat, group });
    } else if (plainNew.has(group)) {
      for (const index of indexes) common.push({ index, chat: null, group });
    } else {
      const written = await storeEach(
        tx,
        indexes.map((i) => jobs[i]),
        visitor,
        chat,
      );
      indexes.forEach((index, i) => (outcomes[index] = written[i]));
    }
  }
  const { toStore, reusers } = await claimAll(tx, jobs, common, outcomes, visitors);
  if (toStore.length > 0) {
    const opened = await openChatsOfNewSenders(tx, jobs, toStore, routings);
    const items = toStore.map(({ index, chat, group }) => {
      const target = chat ?? opened.get(group)!.chat;
      return { chat: target, row: rowOf(jobs[index], target) };
    });
    const ids = await storeMessages(tx, items, [...opened.values()]);
    for (const { index } of toStore) outcomes[index] = 'stored';
    await linkInboundMany(
      tx,
      toStore.flatMap(({ key }, i) => (key ? [{ key, storedId: ids[i] }] : [])),
    );
  }
  // After the new senders' visitors exist: a sender whose id came with other content is marked.
  await markIdsReused(tx, reusers);
  return outcomes;
}

/**
 * 5. The new senders with a message left to store after the claims: each
 * opened by its first such message (as storeEach does for the first message
 * it does not find duplicate), in the order those messages arrived; the chat
 * counts that message and the sender's later ones.
 */
async function openChatsOfNewSenders(
  tx: Tx,
  jobs: InboundJob[],
  toStore: Together[],
  routings: ReadonlyMap<number, AccountRouting>,
): Promise<Map<string, OpenedChat>> {
  const first = new Map<string, number>();
  const events = new Map<string, number>();
  for (const { index, chat, group } of toStore) {
    if (chat) continue;
    if (!first.has(group) || index < first.get(group)!) first.set(group, index);
    events.set(group, (events.get(group) ?? 1) + 1); // its chat.created, then its messages
  }
  const order = [...first].sort((a, b) => a[1] - b[1]);
  const openers = order.map(([, index]) => jobs[index]);
  const offers = await pickFirstOffers(
    tx,
    openers.map(({ channel, now }) => ({ account_id: channel.account_id, channel_id: channel.id, now })),
    routings,
  );
  const opened = await openNewSenders(
    tx,
    openers,
    order.map(([group], i) => events.get(group)! + (isOffered(offers[i]) ? 1 : 0)), // its chat.offered after its chat.created
  );
  await insertFirstOffers(
    tx,
    opened.flatMap(({ chat }, i) => (offers[i] ? [{ chat, first: offers[i] }] : [])),
  );
  return new Map(order.map(([group], i) => [group, { ...opened[i], offered: offers[i] && firstOfferedPayload(opened[i].chat.id, offers[i]) }]));
}

/**
 * 4. The messages written together that carry a message.id claim their keys, all in one
 * statement, by the rule of claimInbound (dedupInbound.ts): a retry, or a repeat of a
 * message earlier in this batch (same id, same content), is a duplicate (answered so, not
 * stored). A sender already marked as reusing its ids claims nothing; one whose id comes
 * with other content (in the store or earlier in this batch) is marked now. What is left,
 * in the order given, is stored.
 */
async function claimAll<T extends { index: number }>(
  tx: Tx,
  jobs: InboundJob[],
  common: T[],
  outcomes: InboundOutcome[],
  visitors: ReadonlyMap<string, BatchVisitor>,
): Promise<{ toStore: Array<T & { key: DedupKey | null }>; reusers: Sender[] }> {
  const keyed = common.map((c) => {
    const job = jobs[c.index];
    const marked = visitors.get(keyOf(job.channel.id, job.req.sender.id))?.inbound_ids_reused;
    return { ...c, key: marked ? null : dedupKeyOf(job) };
  });
  // Before the statement: each row claimed once, by its first job; a later job of the same row repeats
  // that job's content (a repeat) or not (the id reused, which marks the sender).
  const first = new Map<string, TimedDedupKey>();
  const repeated = new Set<number>();
  const reusedInBatch = new Set<number>();
  for (const { index, key } of keyed) {
    if (!key) continue;
    const k = dedupKeyString(key);
    const earlier = first.get(k);
    if (!earlier) first.set(k, { ...key, now: jobs[index].now });
    else if (safeEqual(earlier.contentHash, key.contentHash)) repeated.add(index);
    else reusedInBatch.add(index);
  }
  const claims = await claimInboundMany(tx, [...first.values()]);
  // Then in arrival order, as storeEach job by job: once a sender is marked, its later jobs claim nothing.
  const reusers = new Map<string, Sender>();
  const toStore = keyed.filter((item) => {
    const { index, key } = item;
    if (!key) return true;
    const sender = keyOf(key.channelId, key.senderId);
    if (reusers.has(sender)) {
      item.key = null;
      return true;
    }
    const claim = repeated.has(index) ? 'retry' : reusedInBatch.has(index) ? 'reused' : claims.get(dedupKeyString(key));
    if (claim === 'reused') {
      reusers.set(sender, { channelId: key.channelId, senderId: key.senderId });
      if (reusedInBatch.has(index)) item.key = null; // its row is the first job's
    }
    if (claim !== 'retry') return true;
    outcomes[index] = 'duplicate';
    return false;
  });
  return { toStore, reusers: [...reusers.values()] };
}

interface Sender {
  channelId: number;
  senderId: string;
}

const keyOf = (channelId: number, senderId: string): string => `${channelId}\n${senderId}`;

/**
 * Only the columns the batch reads: a row's columns each cost the driver an
 * object property (on SQLite, returning the whole visitor row took 149 µs for
 * 17 visitors against 88 µs for these).
 */
const VISITOR_COLUMNS = [
  'id',
  'channel_id',
  'external_id',
  'blacklisted',
  'inbound_ids_reused',
  'name',
  'phone',
  'email',
  'photo',
  'url',
  'invite',
  'description',
] as const;
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

/** A message storeEach would store in the open chat with nothing else written but its dedup key: no new visitor, detail or other event. */
function isCommon(job: InboundJob, visitor: BatchVisitor): boolean {
  const { req } = job;
  return req.kind === 'message' && reachesAgents(visitor) && Object.keys(changes(senderDetails(req), visitor)).length === 0;
}

function rowOf(job: InboundJob, chat: BatchChat): MessageRow {
  if (job.req.kind !== 'message') throw new Error('storeInboundBatch: only messages are stored together');
  return visitorMessageRow(chat, job.req.message, job.now);
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/** 1. The visitors of these jobs (one job each) that exist, touched (so locked until commit) and read back, by channel and sender id. */
async function touchVisitors(tx: Tx, jobs: InboundJob[], now: number): Promise<Map<string, BatchVisitor>> {
  if (jobs.length === 0) return new Map();
  const channelIds = jobs.map((j) => j.channel.id);
  const externalIds = jobs.map((j) => j.req.sender.id);
  const rows = isPostgres(tx)
    ? (await touchVisitorsQuery(channelIds, externalIds, now).execute(tx)).rows
    : await touchVisitorsSqlite.execute(tx, { keys: JSON.stringify(jobs.map((_, i) => [channelIds[i], externalIds[i]])), now });
  return new Map(rows.map((v) => [keyOf(v.channel_id, v.external_id), v]));
}

/** 1. The visitors of senders that only type (one job each), read without writing anything, by channel and sender id. */
async function readVisitors(tx: Tx, jobs: InboundJob[]): Promise<Map<string, BatchVisitor>> {
  const channelIds = jobs.map((j) => j.channel.id);
  const externalIds = jobs.map((j) => j.req.sender.id);
  const rows = isPostgres(tx)
    ? (await readVisitorsQuery(channelIds, externalIds).execute(tx)).rows
    : await readVisitorsSqlite.execute(tx, { keys: JSON.stringify(jobs.map((_, i) => [channelIds[i], externalIds[i]])) });
  return new Map(rows.map((v) => [keyOf(v.channel_id, v.external_id), v]));
}

const readVisitorsQuery = (channelIds: number[], externalIds: string[]) =>
  sql<BatchVisitor>`select ${columnList('visitors', VISITOR_COLUMNS)} from visitors
    join unnest(cast(${channelIds} as integer[]), cast(${externalIds} as text[])) as k(channel_id, external_id)
      on visitors.channel_id = k.channel_id and visitors.external_id = k.external_id`;

const readVisitorsSqlite = prepared(['keys'], (db, p: { keys: string }) =>
  db
    .selectFrom('visitors')
    .select(VISITOR_COLUMNS)
    .where(
      'id',
      'in',
      sql<number>`(select v.id from json_each(${p.keys}) k join visitors v on v.channel_id = k.value ->> 0 and v.external_id = k.value ->> 1)`,
    ),
);

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

/** What this transaction knows of a sender's visitor: the touch's part of its row, or the whole row a step wrote since. */
type KnownVisitor = BatchVisitor | Visitor;

/**
 * 3. One sender's jobs written one after the other, each as it would be alone:
 * typing goes to agents through the open chat (nothing written on the visitor,
 * no visitor made: "all other fields in such a message are ignored", the
 * spec); a message writes the sender's details (a new sender's visitor
 * created), claims its message.id, and follows the one rule of a visitor's
 * message (a blacklisted visitor's stored suppressed, a chat opened when there
 * is none, chat.updated first when the contact details changed). `visitor`
 * and `chat`: what steps 1 and 2 found (undefined: none), true until this
 * sender's first message is written.
 */
async function storeEach(tx: Tx, jobs: InboundJob[], found: BatchVisitor | undefined, chat: OpenChat | undefined): Promise<InboundOutcome[]> {
  let visitor: KnownVisitor | undefined = found;
  let open: OpenChat | undefined | 'unknown' = chat;
  const outcomes: InboundOutcome[] = [];
  for (const job of jobs) {
    const { req, now } = job;
    if (req.kind === 'typing') {
      const target = visitor && reachesAgents(visitor) ? (open === 'unknown' ? await findOpenChat(tx, visitor.id) : open) : undefined;
      if (!target) outcomes.push('typing_ignored');
      else {
        const data = { chat_id: target.id, author: 'visitor' as const, typing: req.typing };
        await recordEvent(tx, { accountId: target.account_id, type: 'typing', chatId: target.id, channelId: target.channel_id, data }, now);
        outcomes.push('typing');
      }
      continue;
    }
    const input = visitorInputOf(job);
    const written: UpsertVisitorResult = visitor ? await applyDetails(tx, visitor, input) : await createVisitor(tx, input);
    visitor = written.visitor;
    open = 'unknown';
    outcomes.push(await storeMessage(tx, job, written));
  }
  return outcomes;
}

/** A message of storeEach, its visitor written: its message.id claimed, then stored by the one rule of a visitor's message. */
async function storeMessage(tx: Tx, job: InboundJob, { visitor, created, contactChanged }: UpsertVisitorResult): Promise<InboundOutcome> {
  const { channel, req, now } = job;
  if (req.kind !== 'message') throw new Error('storeMessage: a message');
  // A sender whose ids were seen with other content has no message identifiers: nothing is dropped by them.
  const dedupKey = visitor.inbound_ids_reused ? null : dedupKeyOf(job);
  if (dedupKey) {
    const claim = await claimInbound(tx, dedupKey, now);
    if (claim === 'retry') return 'duplicate';
    if (claim === 'reused') await markIdsReused(tx, [{ channelId: channel.id, senderId: req.sender.id }]);
  }
  const written = await writeVisitorMessage(tx, {
    visitor,
    visitorCreated: created,
    message: req.message,
    now,
    opening: () => ({ page: pageOf(job) }),
    inChat: async (chat) => {
      if (contactChanged) await recordChatState(tx, chat, 'chat.updated', now, { change: 'visitor_updated' });
    },
  });
  if (dedupKey) await linkInbound(tx, dedupKey, written.message.id);
  return written.suppressed ? 'suppressed' : 'stored';
}
