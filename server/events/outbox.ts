/**
 * The transactional outbox: recordEvent() writes an event row inside the
 * caller's transaction (with the next per-chat sequence number when the event
 * belongs to a chat); commit() runs a transaction and then wakes this
 * process's relay at once, so nothing waits for a polling interval.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db, Tx } from '../db/database.js';
import { toJson } from '../lib/json.js';
import type { EventType } from './catalogue.js';

export interface NewEvent {
  accountId: number;
  type: EventType;
  chatId?: number | null;
  channelId?: number | null;
  data: Record<string, unknown>;
}

export interface RecordedEvent {
  id: number;
  seq: number | null;
}

/** Signals of one process: "the outbox has new rows" (relay) and "deliveries are due" (deliverer). */
export class Signals extends EventEmitter {
  outboxWritten(): void {
    this.emit('outbox');
  }
  deliveriesDue(): void {
    this.emit('deliveries');
  }
}

export async function recordEvent(tx: Tx, event: NewEvent, now: number): Promise<RecordedEvent> {
  let seq: number | null = null;
  if (event.chatId) {
    const row = await tx
      .updateTable('chats')
      .set({ last_seq: sql<number>`last_seq + 1` })
      .where('id', '=', event.chatId)
      .returning('last_seq')
      .executeTakeFirstOrThrow();
    seq = row.last_seq;
  }
  const inserted = await tx
    .insertInto('events')
    .values({
      account_id: event.accountId,
      type: event.type,
      chat_id: event.chatId ?? null,
      channel_id: event.channelId ?? null,
      seq,
      data_json: toJson(event.data),
      created_at: now,
      relayed: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: inserted.id, seq };
}

/** Transactions that enqueued deliveries: their commit also wakes the deliverer. */
const withDeliveries = new WeakSet<Tx>();

export function noteDeliveryEnqueued(tx: Tx): void {
  withDeliveries.add(tx);
}

/** Runs fn in a transaction, then wakes the relay (and the deliverer, when fn enqueued deliveries) of this process. */
export async function commit<T>(db: Db, signals: Signals, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let deliveries = false;
  const result = await db.transaction().execute(async (tx) => {
    const value = await fn(tx);
    deliveries = withDeliveries.has(tx);
    return value;
  });
  signals.outboxWritten();
  if (deliveries) signals.deliveriesDue();
  return result;
}
