/**
 * What an outbox subscriber is: the events it handles and what it does with
 * one, inside the relay's transaction. The list of them is subscribers.ts;
 * this type lives apart so a subscriber's module can name it without
 * importing the list that imports it.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
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
  /**
   * Called once after the batch's events, in the same transaction (so before
   * the relay's cursor moves past them): writes what `handle` gathered, e.g. a
   * batch's sums in a few statements. A failure counts against the first event
   * of the batch that the subscriber handled, as a failure of `handle` does;
   * relayed without it after MAX_ATTEMPTS, the subscriber writes nothing of
   * the batch, so `handle` must leave its writes to it or write nothing.
   */
  finishBatch?(tx: Tx, ctx: AppContext): Promise<void>;
}
