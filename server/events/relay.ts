/**
 * The relay: takes committed outbox rows after its cursor in id order, in
 * batches; runs the subscribers of each inside the transaction that moves the
 * cursor past them (relayClaim.ts); commits; then publishes the batch to the
 * realtime hub.
 *
 * It wakes on the process's 'outbox' signal (after every commit()) and polls
 * every second only as the backstop (rows of other instances, a crash). A wake
 * starts the batch on the next turn of the event loop (setImmediate), after
 * the I/O callbacks already due: under load, the commits of many requests
 * then share one relay transaction instead of one each.
 *
 * Order. Sockets resume from a cursor (an event id), so the relayed rows must
 * always be a prefix of the table and be published in id order, across
 * instances too. On PostgreSQL, one batch runs at a time per database schema:
 * claim → subscribers → commit → publish all happen under a session advisory
 * lock, so batch n+1 is never published before batch n. Instances still share
 * the work (whoever gets the lock takes the next batch), and a row is relayed
 * once: the batch that relays it moves the cursor past it in the same
 * transaction, and the next batch, on any instance, starts after the cursor.
 * Gaps: see relayClaim.ts.
 *
 * Failures. A failing subscriber rolls the batch back; it is retried with
 * backoff. After MAX_ATTEMPTS failures on one event, that subscriber's part is
 * rolled back to its savepoint (taken only for that last attempt), logged, and the event is relayed without it
 * (one broken subscriber must not stop realtime for everyone). A subscriber's
 * finishBatch (the writes it gathered over the batch, reports' sums) runs
 * after the batch's events, in the same transaction, its failures counted
 * against the first event it handled. A publish
 * failure is logged by the hub: sockets catch up from the table.
 */
import { sql } from 'kysely';
import type { AppContext, Worker } from '../context.js';
import type { Db, Tx } from '../db/database.js';
import { withRelayLock } from './relayLock.js';
import { claimSqlite, MAX_GAP_WAIT_MS, PostgresClaimer, PROBE_WAIT_MS, type Claim } from './relayClaim.js';
import { toRelayedEvent, type RelayedEvent } from './catalogue.js';
import { subscribers as registered, type Subscriber } from './subscribers.js';

export interface RelayOptions {
  /** Defaults to the registry; tests pass their own. */
  subscribers?: readonly Subscriber[];
  batchSize?: number;
  pollMs?: number;
  /** PostgreSQL gaps (relayClaim.ts); tests shorten them. */
  maxGapWaitMs?: number;
  probeWaitMs?: number;
}

export interface BatchResult {
  relayed: number;
  more: boolean;
}

const MAX_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 30_000;

export class OutboxRelay {
  private readonly subscribers: readonly Subscriber[];
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly claimer: PostgresClaimer;
  /** Event id → subscriber → failed attempts, until the event's batch commits. */
  private readonly failures = new Map<number, Map<string, number>>();
  private running: Promise<void> | null = null;
  private scheduled: NodeJS.Immediate | null = null;
  private again = false;
  private stopped = false;
  private errors = 0;
  private poller: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private readonly onSignal = (): void => this.wake();

  constructor(
    private readonly ctx: AppContext,
    options: RelayOptions = {},
  ) {
    this.subscribers = options.subscribers ?? registered;
    this.batchSize = options.batchSize ?? 100;
    this.pollMs = options.pollMs ?? 1000;
    this.claimer = new PostgresClaimer(
      (id) => ctx.log.warn({ eventId: id }, 'an event id stayed in flight too long; relaying past it (and it, late, if it commits)'),
      {
        maxGapWaitMs: options.maxGapWaitMs ?? MAX_GAP_WAIT_MS,
        probeWaitMs: options.probeWaitMs ?? PROBE_WAIT_MS,
      },
    );
  }

  start(): void {
    this.ctx.signals.on('outbox', this.onSignal);
    this.poller = setInterval(this.onSignal, this.pollMs);
    this.poller.unref();
    this.wake();
  }

  /** Finishes the batch in progress and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ctx.signals.off('outbox', this.onSignal);
    if (this.poller) clearInterval(this.poller);
    if (this.retry) clearTimeout(this.retry);
    if (this.scheduled) clearImmediate(this.scheduled);
    await this.running;
  }

  /** Relays until nothing is left (tests, and callers that need "relayed by now"). */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await this.batch();
      total += result.relayed;
      if (result.relayed === 0 && !result.more) return total;
    }
  }

  wake(): void {
    if (this.stopped) return;
    this.again = true;
    if (this.running || this.scheduled) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = null;
      this.running = this.loop().finally(() => (this.running = null));
    });
  }

  private async loop(): Promise<void> {
    while (this.again && !this.stopped) {
      this.again = false;
      try {
        const result = await this.batch();
        this.errors = 0;
        // Another batch only when this one left rows behind: a commit made meanwhile
        // has woken us already (wake() sets `again`), so an empty claim would be wasted.
        if (result.more) this.again = true;
      } catch (err) {
        this.errors += 1;
        const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** (this.errors - 1));
        this.ctx.log.error({ err, retryInMs: delay }, 'relay batch failed');
        if (this.retry) clearTimeout(this.retry);
        this.retry = setTimeout(() => this.wake(), delay);
        this.retry.unref();
        return;
      }
    }
  }

  /** One batch: claim, run subscribers, commit, publish. */
  async batch(): Promise<BatchResult> {
    if (this.ctx.store.dialect !== 'postgres') return this.run(this.ctx.db, (tx) => claimSqlite(tx, this.batchSize));
    return withRelayLock(this.ctx.db, 'postgres', (conn) => this.run(conn, (tx) => this.claimer.claim(tx, this.batchSize)));
  }

  private async run(db: Db, claim: (tx: Tx) => Promise<Claim>): Promise<BatchResult> {
    const events: RelayedEvent[] = [];
    let handled = false;
    const result = await db.transaction().execute(async (tx) => {
      const { rows, more } = await claim(tx);
      /** Subscriber with a finishBatch → the first event it handled in this batch. */
      const finishing = new Map<Subscriber, RelayedEvent>();
      for (const row of rows) {
        const event = toRelayedEvent(row);
        if (!event) continue;
        if (await this.runSubscribers(tx, event, finishing)) handled = true;
        events.push(event);
      }
      for (const [subscriber, first] of finishing) await this.finishBatch(tx, subscriber, first);
      return { relayed: rows.length, more };
    });
    this.claimer.committed();
    for (const e of events) this.failures.delete(e.id);
    // Subscribers enqueue deliveries: the deliverer need not wait for its poll.
    if (handled) this.ctx.signals.deliveriesDue();
    // Sent together, in order: the hub keeps the order of calls.
    await Promise.all(events.map((e) => this.ctx.hub.publish(e)));
    return result;
  }

  /** Whether a subscriber that may enqueue deliveries handled the event. */
  private async runSubscribers(tx: Tx, event: RelayedEvent, finishing: Map<Subscriber, RelayedEvent>): Promise<boolean> {
    let handled = false;
    for (const subscriber of this.subscribers) {
      if (!subscriber.handles.includes(event.type)) continue;
      // A row whose payload is not what its name promises (written by an older version, say) may make
      // `wants` throw: that counts as the subscriber failing on it, never as the whole relay stuck.
      let wanted = true;
      try {
        if (subscriber.wants) wanted = subscriber.wants(event);
      } catch (err) {
        this.subscriberFailed(subscriber, event, err);
        continue;
      }
      if (!wanted) continue;
      if (subscriber.enqueuesDeliveries !== false) handled = true;
      if (subscriber.finishBatch && !finishing.has(subscriber)) finishing.set(subscriber, event);
      await this.guarded(tx, subscriber, event, () => subscriber.handle(tx, event, this.ctx));
    }
    return handled;
  }

  /** A subscriber's end of the batch (Subscriber.finishBatch), its failure counted against the first event it handled. */
  private async finishBatch(tx: Tx, subscriber: Subscriber, first: RelayedEvent): Promise<void> {
    if (subscriber.finishBatch) await this.guarded(tx, subscriber, first, () => subscriber.finishBatch!(tx, this.ctx));
  }

  /**
   * Runs a subscriber's part; a failure is counted against `event`
   * (subscriberFailed). A savepoint is needed only when that failure would be
   * its last attempt: until then subscriberFailed throws and the whole batch
   * rolls back, so the savepoint would undo nothing the rollback does not
   * (issue 23: two statements, on PostgreSQL two round trips, saved per
   * subscriber and event).
   */
  private async guarded(tx: Tx, subscriber: Subscriber, event: RelayedEvent, part: () => Promise<void>): Promise<void> {
    const last = (this.failures.get(event.id)?.get(subscriber.name) ?? 0) + 1 >= MAX_ATTEMPTS;
    if (!last) {
      try {
        await part();
      } catch (err) {
        this.subscriberFailed(subscriber, event, err);
      }
      return;
    }
    await sql`savepoint relay_subscriber`.execute(tx);
    try {
      await part();
      await sql`release savepoint relay_subscriber`.execute(tx);
    } catch (err) {
      await sql`rollback to savepoint relay_subscriber`.execute(tx);
      this.subscriberFailed(subscriber, event, err);
    }
  }

  /** Counts a subscriber's failure on an event: throws (the batch is retried) until MAX_ATTEMPTS, then relays the event without it. */
  private subscriberFailed(subscriber: Subscriber, event: RelayedEvent, err: unknown): void {
    const counts = this.failures.get(event.id) ?? new Map<string, number>();
    const attempts = (counts.get(subscriber.name) ?? 0) + 1;
    counts.set(subscriber.name, attempts);
    this.failures.set(event.id, counts);
    if (attempts < MAX_ATTEMPTS) throw new SubscriberFailed(subscriber.name, event.id, attempts, err);
    // Kept past MAX_ATTEMPTS, so a retry of the batch (another subscriber failing) skips it again.
    if (attempts === MAX_ATTEMPTS)
      this.ctx.log.error({ err, subscriber: subscriber.name, eventId: event.id, type: event.type }, 'subscriber keeps failing; event relayed without it');
  }
}

export class SubscriberFailed extends Error {
  constructor(
    readonly subscriber: string,
    readonly eventId: number,
    readonly attempt: number,
    readonly error: unknown,
  ) {
    super(`subscriber ${subscriber} failed on event ${eventId} (attempt ${attempt}): ${error instanceof Error ? error.message : String(error)}`);
    this.name = 'SubscriberFailed';
  }
}

export function createRelay(ctx: AppContext, options?: RelayOptions): OutboxRelay {
  return new OutboxRelay(ctx, options);
}

export const relayWorker: Worker = async (_app, ctx) => {
  const relay = createRelay(ctx);
  relay.start();
  return () => relay.stop();
};
