/**
 * The rows of a group-commit batch's messages (storeInboundBatch.ts): the
 * messages as insertMessage writes them, and the events recordEvent would
 * write for them, each with its chat's next sequence number: the chat.created
 * of every chat the batch opened (newSenders.ts), and its first offer's
 * chat.offered when it was offered to an agent, before its messages, then one
 * message.created per message, in job order.
 *
 * A chat the batch opened was inserted with its last sequence number already
 * moved past its events (they are numbered from 1); every other chat's
 * sequence is moved on once by its number of messages. Event ids are not taken
 * ahead: the relay relies on an event's id being taken by the insert that
 * writes its row (events/relayClaim.ts); the events are inserted in the order
 * above, so their ids ascend as their sequence numbers do within a chat.
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import type { Chat } from '../../db/schema.js';
import { payloadJson, takeSeqs } from '../../events/outbox.js';
import { messageCreatedPayload } from '../chats/chatEvents.js';
import { insertMessages, type MessageRow } from '../messages/insertMessage.js';
import { chatCreatedPayload, type OpenedChat } from './newSenders.js';

export type BatchChat = Pick<Chat, 'id' | 'account_id' | 'channel_id'>;

export interface BatchMessage {
  chat: BatchChat;
  row: MessageRow;
}

interface EventToWrite {
  chat: BatchChat;
  type: 'chat.created' | 'chat.offered' | 'message.created';
  data_json: string;
  created_at: number;
}

/** The messages' ids, in the order given. */
export async function storeMessages(tx: Tx, items: BatchMessage[], opened: OpenedChat[]): Promise<number[]> {
  const created: EventToWrite[] = opened.flatMap((o): EventToWrite[] => [
    { chat: o.chat, type: 'chat.created', data_json: payloadJson('chat.created', chatCreatedPayload(o)), created_at: o.chat.created_at },
    ...(o.offered ? [{ chat: o.chat, type: 'chat.offered' as const, data_json: payloadJson('chat.offered', o.offered), created_at: o.chat.created_at }] : []),
  ]);
  const fresh = new Set(opened.map((o) => o.chat.id));
  const messages = await insertMessages(
    tx,
    items.map(({ row }) => row),
  );
  const events = [
    ...created,
    ...items.map(({ chat }, i): EventToWrite => ({
      chat,
      type: 'message.created',
      data_json: payloadJson('message.created', messageCreatedPayload(messages[i])),
      created_at: messages[i].created_at,
    })),
  ];
  await (isPostgres(tx) ? insertEventsPostgres(tx, events, fresh) : insertEventsSqlite(tx, events, fresh));
  return messages.map((m) => m.id);
}

/** Each event's place among its chat's events of the batch: k = 1, 2, … */
function places(events: EventToWrite[]): { k: number[]; perChat: Map<number, number> } {
  const perChat = new Map<number, number>();
  const k = events.map(({ chat }) => {
    const n = (perChat.get(chat.id) ?? 0) + 1;
    perChat.set(chat.id, n);
    return n;
  });
  return { k, perChat };
}

/**
 * PostgreSQL: one statement that moves each chat's sequence on by its number
 * of events (the chats the batch opened aside) and inserts the events in the
 * order given (ORDER BY the array position).
 */
async function insertEventsPostgres(tx: Tx, events: EventToWrite[], fresh: Set<number>): Promise<void> {
  if (events.length === 0) return;
  const { k, perChat } = places(events);
  const moved = [...perChat].filter(([chatId]) => !fresh.has(chatId));
  const inserted = await sql<{ id: number }>`with bumped as (
      update chats set last_seq = chats.last_seq + v.n
      from unnest(cast(${moved.map(([id]) => id)} as integer[]), cast(${moved.map(([, n]) => n)} as integer[])) as v(id, n)
      where chats.id = v.id
      returning chats.id, chats.last_seq - v.n as base
    )
    insert into events (account_id, type, chat_id, channel_id, seq, data_json, created_at)
    select e.account_id, e.type, e.chat_id, e.channel_id, coalesce(b.base, 0) + e.k, e.data_json, e.created_at
    from unnest(cast(${events.map((e) => e.chat.account_id)} as integer[]), cast(${events.map((e) => e.type)} as text[]),
      cast(${events.map((e) => e.chat.id)} as integer[]), cast(${events.map((e) => e.chat.channel_id)} as integer[]),
      cast(${k} as integer[]), cast(${events.map((e) => fresh.has(e.chat.id))} as boolean[]),
      cast(${events.map((e) => e.data_json)} as text[]), cast(${events.map((e) => e.created_at)} as bigint[]))
      with ordinality as e(account_id, type, chat_id, channel_id, k, fresh, data_json, created_at, position)
    left join bumped b on b.id = e.chat_id
    where e.fresh or b.id is not null
    order by e.position
    returning id`.execute(tx);
  if (inserted.rows.length !== events.length) throw new Error('storeInboundBatch: a chat of the batch is gone');
}

/** SQLite: each chat's sequence moved on once (the chats the batch opened aside), then the events in one insert from a JSON array, in the order given. */
async function insertEventsSqlite(tx: Tx, events: EventToWrite[], fresh: Set<number>): Promise<void> {
  if (events.length === 0) return;
  const { k, perChat } = places(events);
  const base = new Map<number, number>();
  for (const [chatId, n] of perChat) base.set(chatId, fresh.has(chatId) ? 0 : (await takeSeqs(tx, chatId, n)) - 1);
  const rows = events.map((e, i) => [e.chat.account_id, e.type, e.chat.id, e.chat.channel_id, base.get(e.chat.id)! + k[i], e.data_json, e.created_at]);
  await sql`insert into events (account_id, type, chat_id, channel_id, seq, data_json, created_at)
    select e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value ->> 4, e.value ->> 5, e.value ->> 6
    from json_each(${JSON.stringify(rows)}) e
    order by e.key`.execute(tx);
}
