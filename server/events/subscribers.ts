/**
 * The one registry of outbox subscribers: who reacts to which event, inside the
 * relay's transaction (the one that moves the relay's cursor past the event).
 * A subscriber's writes therefore commit exactly once with that move, or not
 * at all, and are retried with it. Subscribers must only write to the store
 * (enqueue a delivery, update a row): anything external goes through an outbox
 * of its own (deliveries), never straight from here. What a subscriber is:
 * subscriber.ts.
 */
import { eventWebhooks } from '../eventWebhooks/subscriber.js';
import { mailNotifications } from '../mail/subscriber.js';
import { pushNotifications } from '../push/subscriber.js';
import { reportsSubscriber } from '../domain/reports/subscriber.js';
import type { Subscriber } from './subscriber.js';

export type { Subscriber };

/** Every subscriber of production, in the order they run for one event. */
export const subscribers: Subscriber[] = [eventWebhooks, reportsSubscriber, mailNotifications, pushNotifications];
