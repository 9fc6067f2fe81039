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
import { eventWebhooks } from '../eventWebhooks/subscriber.js';
import { mailNotifications } from '../mail/subscriber.js';
import { reportsSubscriber } from '../domain/reports/subscriber.js';
import type { EventType, RelayedEvent } from './catalogue.js';

export interface Subscriber {
  /** Shown in logs when the subscriber fails. */
  name: string;
  handles: readonly EventType[];
  /** Narrower than `handles`: false skips the event before any work (no savepoint), e.g. a message it does not count. */
  wants?(event: RelayedEvent): boolean;
  /** False when it never enqueues deliveries (so running it need not wake the deliverer); default true. */
  enqueuesDeliveries?: boolean;
  handle(tx: Tx, event: RelayedEvent, ctx: AppContext): Promise<void>;
}

/** Every subscriber of production, in the order they run for one event. */
export const subscribers: Subscriber[] = [eventWebhooks, reportsSubscriber, mailNotifications];
