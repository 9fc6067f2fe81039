/**
 * The transactional outbox: recordEvent() writes an event row inside the
 * caller's transaction (with the next per-chat sequence number when the event
 * belongs to a chat); commit() runs a transaction and then wakes this
 * process's relay at once, so nothing waits for a polling interval.
 */
import { EventEmitter } from 'node:events';
import { sql, type Selectable } from 'kysely';
import { inTransaction, isPostgres, type Db, type Tx } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Chat, EventsTable } from '../db/schema.js';
import { toJson } from '../lib/json.js';
import type { EventPayloads, EventType } from './catalogue.js';

/** An event to record: its name, and the payload the catalogue gives that name. */
export interface NewEvent<T extends EventType> {
  accountId: number;
  type: T;
  chatId?: number | null;
  channelId?: number | null;
  data: EventPayloads[T];
}

export interface RecordedEvent {
  id: number;
  seq: number | null;
}

/** Signals of one process: "the outbox has new rows" (relay), "deliveries are due" (deliverer), "a report zone changed" (daily rollup). */
export class Signals extends EventEmitter {
  outboxWritten(): void {
    this.emit('outbox');
  }
  deliveriesDue(): void {
    this.emit('deliveries');
  }
  /** An account's time zone changed: its daily report rollup is to be rebuilt (domain/reports/dailyRollupWorker.ts). */
  reportZoneChanged(): void {
    this.emit('report-zone');
  }
}

export type EventRow = Omit<Selectable<EventsTable>, 'id'>;

/** SQLite: the chat's next sequence number(s), then the row (two statements, no round trips to save). */
const bumpSeq = prepared(['chatId', 'n'], (db, p: { chatId: number; n: number }) =>
  db
    .updateTable('chats')
    .set({ last_seq: sql<number>`last_seq + ${p.n}` })
    .where('id', '=', p.chatId)
    .returning('last_seq'),
);
const insertEvent = prepared<EventRow, { id: number }>(['account_id', 'type', 'chat_id', 'channel_id', 'seq', 'data_json', 'created_at'], (db, row) =>
  db.insertInto('events').values(row).returning('id'),
);

/** PostgreSQL: the chat's sequence bump and the insert in one statement (one round trip). */
const insertChatEvent = prepared<Omit<EventRow, 'seq'> & { chat_id: number }, { id: number; seq: number | null }>(
  ['account_id', 'type', 'chat_id', 'channel_id', 'data_json', 'created_at'],
  (db, row) =>
    db
      .with('bumped', (qb) =>
        qb
          .updateTable('chats')
          .set({ last_seq: sql<number>`last_seq + 1` })
          .where('id', '=', row.chat_id)
          .returning(['id', 'last_seq']),
      )
      .insertInto('events')
      .columns(['account_id', 'type', 'chat_id', 'channel_id', 'seq', 'data_json', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('bumped')
          .select([
            eb.val(row.account_id).as('account_id'),
            eb.val(row.type).as('type'),
            'bumped.id',
            eb.val(row.channel_id).as('channel_id'),
            'bumped.last_seq',
            eb.val(row.data_json).as('data_json'),
            eb.val(row.created_at).as('created_at'),
          ]),
      )
      .returning(['id', 'seq']),
);

/** SQLite: takes the chat's next n sequence numbers and returns the first. */
async function takeSeqs(tx: Tx, chatId: number, n: number): Promise<number> {
  return (await bumpSeq.only(tx, { chatId, n })).last_seq - n + 1;
}

/** A payload as the outbox stores it (events.data_json), for writers that insert many rows in one statement. */
export function payloadJson<T extends EventType>(_type: T, data: EventPayloads[T]): string {
  return toJson(data);
}

export async function recordEvent<T extends EventType>(tx: Tx, event: NewEvent<T>, now: number): Promise<RecordedEvent> {
  const row = {
    account_id: event.accountId,
    type: event.type,
    chat_id: event.chatId ?? null,
    channel_id: event.channelId ?? null,
    data_json: toJson(event.data),
    created_at: now,
  };
  if (row.chat_id !== null && isPostgres(tx)) return insertChatEvent.only(tx, { ...row, chat_id: row.chat_id });
  const seq = row.chat_id === null ? null : await takeSeqs(tx, row.chat_id, 1);
  const inserted = await insertEvent.only(tx, { ...row, seq });
  return { id: inserted.id, seq };
}

/** An event of a chat with its payload already stored as JSON (payloadJson), for recordChatEvents. */
export interface ChatEventRow {
  chat: Pick<Chat, 'id' | 'account_id' | 'channel_id'>;
  type: EventType;
  data_json: string;
  created_at: number;
}

/**
 * Many events of chats (a chat-channel batch's: domain/chatChannel/batchMessages.ts),
 * each with its chat's next sequence number, inserted in the order given. `fresh`:
 * chats inserted in this transaction with their last sequence number already moved
 * past their events here (numbered from 1); every other chat's sequence is moved
 * on once by its number of events. Event ids are not taken ahead: the relay relies
 * on an event's id being taken by the insert that writes its row (relayClaim.ts).
 * PostgreSQL: one statement; SQLite: one per chat not fresh, then one insert.
 */
export async function recordChatEvents(tx: Tx, events: ChatEventRow[], fresh: ReadonlySet<number>): Promise<void> {
  await (isPostgres(tx) ? insertEventsPostgres(tx, events, fresh) : insertEventsSqlite(tx, events, fresh));
}

/** Each event's place among its chat's events given: k = 1, 2, … */
function places(events: ChatEventRow[]): { k: number[]; perChat: Map<number, number> } {
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
async function insertEventsPostgres(tx: Tx, events: ChatEventRow[], fresh: ReadonlySet<number>): Promise<void> {
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
  if (inserted.rows.length !== events.length) throw new Error('recordChatEvents: a chat of the batch is gone');
}

/** SQLite: each chat's sequence moved on once (the chats the batch opened aside), then the events in one insert from a JSON array, in the order given. */
async function insertEventsSqlite(tx: Tx, events: ChatEventRow[], fresh: ReadonlySet<number>): Promise<void> {
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

/**
 * PostgreSQL, the relay's probe of an id in a gap (relayClaim.ts, inside a savepoint it rolls
 * back): a row with that id, unless one is there (true: the id is free). It waits while the
 * transaction that took the id is in flight.
 */
export async function insertGapProbe(tx: Tx, id: number, accountId: number): Promise<boolean> {
  const inserted = await sql<{ id: number }>`
    insert into events (id, account_id, type, data_json, created_at)
    values (${id}, ${accountId}, '_relay_gap_probe', '{}', 0)
    on conflict (id) do nothing
    returning id`.execute(tx);
  return inserted.rows.length > 0;
}

/** Transactions that enqueued deliveries: their commit also wakes the deliverer. */
const withDeliveries = new WeakSet<Tx>();

export function noteDeliveryEnqueued(tx: Tx): void {
  withDeliveries.add(tx);
}

/**
 * Runs fn in a transaction, then wakes the relay (and the deliverer, when fn enqueued deliveries) of this process.
 * A transaction PostgreSQL aborts for concurrency alone (a deadlock) is run again from the start (db/transient.ts).
 */
export async function commit<T>(db: Db, signals: Signals, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let deliveries = false;
  const result = await inTransaction(db, async (tx) => {
    const value = await fn(tx);
    deliveries = withDeliveries.has(tx);
    return value;
  });
  signals.outboxWritten();
  if (deliveries) signals.deliveriesDue();
  return result;
}
