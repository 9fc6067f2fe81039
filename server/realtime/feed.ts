/**
 * EventFeed: what one socket receives of an account's events, in id order,
 * none lost or doubled across reconnects and instances. Any socket reuses it
 * (the agent stream; the widget's visitor socket with its own filter and
 * frames): subscribe to the hub, replay from the events table after the
 * client's cursor, then go live.
 *
 * Why the cursor (an event id) is safe. The relay keeps the relayed rows a
 * prefix of the table and publishes in id order, on every instance alike (see
 * events/relay.ts and relayClaim.ts: on PostgreSQL it never relays past an id
 * still in flight, so a late-committing id 10 can not be overtaken by 11). The
 * feed reads only relayed rows, so "everything up to my cursor" is final: a
 * reconnecting client cannot skip an event that commits late.
 *
 * The seam. All work runs in one queue: the hub subscription is made first
 * (and awaited: with Redis, SUBSCRIBE is a round trip), then the replay task is
 * queued, so live events wait behind it; every event, replayed or live, is
 * dropped if its id is not above the last id handled. The hub may lose events
 * (a Redis outage, a crash between commit and publish), so the feed also
 * catches up from the table on the hub's reset and whenever the owner asks
 * (the agent stream does it at every ping).
 *
 * Retention. Old events are deleted (server/retention/); each account keeps
 * the mark of the newest id deleted. A cursor below the mark asks for events
 * that are gone, and replaying what is left would skip them silently: the
 * feed calls reset() instead (the client reloads its state) and starts at the
 * head, as a socket without a cursor does. The mark is read again after a
 * replay, for a delete that ran while it read.
 *
 * Replay cap. A resume replays at most MAX_REPLAY events of the account after
 * the cursor (counted visible to the socket or not, since the work is reading
 * them). A cursor further behind gets reset('too_far_behind') instead, decided
 * by one query that reads at most MAX_REPLAY + 1 index entries, and starts at
 * the head: reloading the lists is cheaper than a replay of the whole retained
 * log, for the client and for the store. A catch-up (the hub's reset, the
 * ping) reads at most MAX_REPLAY rows too; one that finds more closes the
 * socket (fail) after them, and the client resumes from its cursor (a resume
 * still too far behind gets the reset).
 */
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { RELAYED_THROUGH } from '../events/relayClaim.js';
import { toRelayedEvent } from '../events/catalogue.js';
import { deletedThrough } from '../events/eventMarks.js';
import { feedPosition } from '../events/feedPosition.js';
import type { StreamEvent, Unsubscribe } from './hub.js';
import type { ResetReason } from './socket.js';
// Where an account's relayed events stand is the events' own (the widget session hands it out too).
export { feedPosition, relayedHead, type FeedPosition } from '../events/feedPosition.js';

export interface FeedOptions {
  ctx: AppContext;
  accountId: number;
  /** Resume after this event id; null starts at the current head (the client loads state through the API). */
  cursor: number | null;
  /** Whether this socket may see the event (it belongs to the account already). */
  visible(event: StreamEvent): boolean | Promise<boolean>;
  send(event: StreamEvent): void;
  /**
   * What the client holds cannot be caught up by a replay: its cursor is older
   * than the events retention kept (cursor_expired), or more than MAX_REPLAY
   * events behind (too_far_behind). It reloads its state; the feed goes on from
   * the head. Called at most once, before ready().
   */
  reset(reason: ResetReason): void;
  /** Called once, in order, after the replay: the client is live from `cursor` on. */
  ready?(cursor: number): void;
  /** The feed cannot go on (too far behind, store error): close the socket; the client resumes with its cursor. */
  fail(reason: string, err?: unknown): void;
}

const PAGE = 500;
/** The most events a resume replays (docs/SECURITY.md §4); a cursor further behind is reset to the head. */
export const MAX_REPLAY = 1000;
const TOO_FAR_BEHIND = 'too far behind; reconnect with your cursor';
/** Events queued for one socket before it is considered too slow. */
const MAX_PENDING = 5000;
const SUBSCRIBE_WAIT_MS = 5000;

export class EventFeed {
  private last = 0;
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private started = false;
  private closed = false;
  private unsubscribe: Unsubscribe | null = null;

  constructor(private readonly options: FeedOptions) {}

  /** The id of the last event handled (sent or filtered out): the client's cursor. */
  get cursor(): number {
    return this.last;
  }

  /** Subscribes, replays what the client missed, calls ready(); resolves to the cursor then. */
  start(): Promise<number> {
    const { ctx, accountId } = this.options;
    const sub = ctx.hub.subscribe(
      accountId,
      (e) => void this.enqueue(() => this.deliver(e)),
      () => this.catchUp(),
    );
    this.unsubscribe = sub;
    return this.enqueue(async () => {
      await Promise.race([sub.ready, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
      const { head, deletedThrough: mark } = await feedPosition(ctx.db, accountId);
      const cursor = this.options.cursor;
      if (cursor !== null && cursor < mark) {
        this.last = head;
        this.options.reset('cursor_expired');
      } else if (cursor !== null && cursor < head && (await beyondReplay(ctx.db, accountId, cursor, head))) {
        this.last = head;
        this.options.reset('too_far_behind');
      } else {
        // A cursor from the future (another database, say) is treated as the head.
        this.last = cursor === null ? head : Math.min(cursor, head);
        // Events kept coming while it read, past MAX_REPLAY: closed after those, the client resumes from its cursor.
        if (!(await this.replay())) return this.fail(TOO_FAR_BEHIND);
        // Only a replay can have lost rows to a concurrent delete (a cursor at the head replays nothing).
        if (cursor !== null && cursor < head && cursor < (await deletedThrough(ctx.db, accountId))) this.options.reset('cursor_expired');
      }
      this.started = true;
      this.options.ready?.(this.last);
    }).then(
      () => this.last,
      () => this.last, // already reported through fail()
    );
  }

  /** Reads what the hub may have missed from the table (cheap when nothing was). */
  catchUp(): void {
    if (this.started && !this.closed)
      void this.enqueue(async () => {
        if (!(await this.replay())) this.fail(TOO_FAR_BEHIND);
      });
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async deliver(event: StreamEvent): Promise<void> {
    if (this.closed || event.id <= this.last) return;
    this.last = event.id;
    if (await this.options.visible(event)) {
      if (!this.closed) this.options.send(event);
    }
  }

  /** Replays after `last`, at most MAX_REPLAY rows; false when more than that were there (the rest is not read). */
  private async replay(): Promise<boolean> {
    const { ctx, accountId } = this.options;
    let budget = MAX_REPLAY;
    for (;;) {
      // The last read of a full budget asks for one row: whether there are more than MAX_REPLAY.
      const limit = Math.min(PAGE, budget + 1);
      const rows = await ctx.db
        .selectFrom('events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '>', this.last)
        .where('id', '<=', RELAYED_THROUGH)
        .orderBy('id')
        .limit(limit)
        .execute();
      if (rows.length > budget) return false;
      for (const row of rows) {
        if (this.closed) return true;
        const event = toRelayedEvent(row);
        if (event) await this.deliver(event);
        else this.last = Math.max(this.last, row.id);
      }
      budget -= rows.length;
      if (rows.length < limit) return true;
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.pending += 1;
    if (this.pending > MAX_PENDING) {
      this.fail('too far behind; reconnect with your cursor');
      return Promise.resolve();
    }
    const run = this.tail.then(() => (this.closed ? undefined : task())).finally(() => (this.pending -= 1));
    this.tail = run.catch((err: unknown) => this.fail('internal error; reconnect with your cursor', err));
    return run;
  }

  private fail(reason: string, err?: unknown): void {
    if (this.closed) return;
    this.close();
    this.options.fail(reason, err);
  }
}

/**
 * Whether more than MAX_REPLAY relayed events of the account follow `cursor`:
 * the (MAX_REPLAY + 1)th id after it, read from events_account_id alone. Ids
 * are shared by all accounts, so a cursor fewer than MAX_REPLAY ids below the
 * head needs no query.
 */
async function beyondReplay(db: Executor, accountId: number, cursor: number, head: number): Promise<boolean> {
  if (head - cursor <= MAX_REPLAY) return false;
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '>', cursor)
    .where('id', '<=', RELAYED_THROUGH)
    .orderBy('id')
    .offset(MAX_REPLAY)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
