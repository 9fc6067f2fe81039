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
import type { EventsTable } from '../db/schema.js';
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

/** SQLite: takes the chat's next n sequence numbers and returns the first (for the chat-channel batch, domain/chatChannel/batchMessages.ts). */
export async function takeSeqs(tx: Tx, chatId: number, n: number): Promise<number> {
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
