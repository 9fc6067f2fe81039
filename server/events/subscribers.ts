/**
 * The one registry of outbox subscribers: who reacts to which event, inside the
 * relay's transaction (the one that moves the relay's cursor past the event).
 * A subscriber's writes therefore commit exactly once with that move, or not
 * at all, and are retried with it. Subscribers must only write to the store
 * (enqueue a delivery, update a row): anything external goes through an outbox
 * of its own (deliveries), never straight from here.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import type { EventsTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import { parseJson } from '../lib/json.js';
import { eventWebhooks } from '../eventWebhooks/subscriber.js';
import { mailNotifications } from '../mail/subscriber.js';
import { EVENT_TYPES, type EventType } from './catalogue.js';

/** A committed outbox row as consumers see it: data parsed, type checked against the catalogue. */
export interface RelayedEvent {
  id: number;
  account_id: number;
  type: EventType;
  chat_id: number | null;
  channel_id: number | null;
  seq: number | null;
  data: Record<string, unknown>;
  created_at: number;
}

export interface Subscriber {
  /** Shown in logs when the subscriber fails. */
  name: string;
  handles: readonly EventType[];
  handle(tx: Tx, event: RelayedEvent, ctx: AppContext): Promise<void>;
}

/** Every subscriber of production, in the order they run for one event. */
export const subscribers: Subscriber[] = [eventWebhooks, mailNotifications];

const KNOWN = new Set<string>(EVENT_TYPES);

/** The consumer's view of an events row; null for a type no longer in the catalogue. */
export function toRelayedEvent(row: Selectable<EventsTable>): RelayedEvent | null {
  if (!KNOWN.has(row.type)) return null;
  return {
    id: row.id,
    account_id: row.account_id,
    type: row.type as EventType,
    chat_id: row.chat_id,
    channel_id: row.channel_id,
    seq: row.seq,
    data: parseJson<Record<string, unknown>>(row.data_json, {}),
    created_at: row.created_at,
  };
}
