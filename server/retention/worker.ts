/**
 * The retention worker: three tables grow with every message and would grow
 * forever (tens of millions of rows a day at benchmark rates), so a pass
 * every RETENTION_INTERVAL_SECONDS deletes what is no longer needed:
 * inbound_dedup past its window (minutes), finished deliveries and relayed events
 * older than RETENTION_DAYS (0 keeps those two forever); and, whatever that
 * says, expired or revoked login tokens and finished sign-in throttling rows
 * (pruneAuth.ts); anonymous widget visitors that left nothing behind, not
 * seen for VISITOR_IDLE_DAYS (0 keeps them; pruneVisitors.ts). What each
 * table keeps, and why, is in its prune*.ts.
 *
 * Deletes go in batches of BATCH_SIZE rows, each its own short transaction,
 * with a turn of the event loop between batches, so no statement holds locks
 * (or, on SQLite, the one writer) for long and requests interleave. A pass
 * drains each table until nothing is due, so a backlog (a first start on an
 * old database) is worked off in one pass, batch by batch. On several
 * instances each batch is exclusive (exclusive.ts): an instance that finds
 * another one pruning ends its pass. Time comes from ctx.clock, so tests
 * move it instead of waiting. A pass that fails because the database is
 * unavailable is logged through the app's outage log
 * (errors/unavailableLog.ts), counted over two intervals, since passes are
 * one interval apart; any other failure at error with its stack.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext, Worker } from '../context.js';
import { UnavailableLog, type UnavailableSource } from '../errors/unavailableLog.js';
import { pruneAuth } from './pruneAuth.js';
import { pruneChats } from './pruneChats.js';
import { pruneDeliveries } from './pruneDeliveries.js';
import { pruneEvents } from './pruneEvents.js';
import { pruneInboundDedup } from './pruneInboundDedup.js';
import { pruneVisitors } from './pruneVisitors.js';
import { pruneAudit } from './pruneAudit.js';

export const BATCH_SIZE = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The first pass comes a minute after start (a process restarted often still prunes), not at once (start-up is busy). */
const FIRST_PASS_DELAY_MS = 60_000;
/** Chat retention (pruneChats.ts) runs in the first pass and then hourly, whatever RETENTION_INTERVAL_SECONDS says. */
export const CHATS_EVERY_MS = 60 * 60 * 1000;

export type RetainedTable = 'inbound_dedup' | 'auth' | 'deliveries' | 'events' | 'visitors' | 'audit' | 'chats';
export type PassResult = Record<RetainedTable, number>;

interface Batch {
  deleted: number;
  more: boolean;
}

export class Retention {
  private readonly batchSize: number;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly unavailable: UnavailableLog;
  private readonly ownUnavailable: boolean;
  /** Failed passes in the outage log: one per interval at most, so summed up over two (a pass may start a little late). */
  private readonly failedPasses: UnavailableSource;
  /** When the last pass that erased old chats started; null before the first. */
  private chatsPassAt: number | null = null;

  /** `unavailable`: the app's outage log (app.unavailableLog); a log of its own when not given. */
  constructor(
    private readonly ctx: AppContext,
    options: { batchSize?: number; unavailable?: UnavailableLog } = {},
  ) {
    this.batchSize = options.batchSize ?? BATCH_SIZE;
    this.ownUnavailable = !options.unavailable;
    this.unavailable = options.unavailable ?? new UnavailableLog({ log: ctx.log });
    this.failedPasses = { name: 'retention', first: 'retention pass failed', unit: ['pass', 'passes'], verb: 'failed', intervalMs: 2 * this.intervalMs };
  }

  start(): void {
    this.schedule(Math.min(FIRST_PASS_DELAY_MS, this.intervalMs));
  }

  /** Ends after the batch in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (this.ownUnavailable) this.unavailable.close();
  }

  /**
   * One pass: each table until nothing is due. Ends early when another
   * instance is pruning (it does the rest). Returns the rows deleted.
   */
  async pass(): Promise<PassResult> {
    const now = this.ctx.clock();
    const limit = this.batchSize;
    const result: PassResult = { inbound_dedup: 0, auth: 0, deliveries: 0, events: 0, visitors: 0, audit: 0, chats: 0 };
    const chatsDue = this.chatsPassAt === null || now - this.chatsPassAt >= CHATS_EVERY_MS;
    if (chatsDue) this.chatsPassAt = now;
    const days = this.ctx.config.retentionDays;
    const cutoff = now - days * DAY_MS;
    const idleDays = this.ctx.config.visitorIdleDays;
    const visitorCutoff = now - idleDays * DAY_MS;
    let after = 0;
    const tables: Array<[RetainedTable, () => Promise<Batch | null>]> = [
      ['inbound_dedup', () => pruneInboundDedup(this.ctx, { now, limit })],
      ['auth', () => pruneAuth(this.ctx, { now, limit })],
      ['deliveries', () => pruneDeliveries(this.ctx, { cutoff, limit })],
      [
        'events',
        async () => {
          const batch = await pruneEvents(this.ctx, { after, cutoff, limit });
          if (!batch) return null;
          after = batch.next ?? after;
          return { deleted: batch.deleted, more: batch.next !== null };
        },
      ],
      ['visitors', () => pruneVisitors(this.ctx, { cutoff: visitorCutoff, limit })],
      ['audit', () => pruneAudit(this.ctx, { cutoff: now - this.ctx.config.auditRetentionDays * DAY_MS, limit })],
      [
        'chats',
        async () => {
          const batch = await pruneChats(this.ctx, { now, limit: Math.min(limit, 500) });
          return batch ? { deleted: batch.chats, more: batch.more } : null;
        },
      ],
    ];
    for (const [table, batch] of tables) {
      // RETENTION_DAYS=0 keeps deliveries and events forever; dedup keys and sign-in rows expire whatever it says.
      if (days === 0 && (table === 'deliveries' || table === 'events')) continue;
      if (idleDays === 0 && table === 'visitors') continue;
      if (this.ctx.config.auditRetentionDays === 0 && table === 'audit') continue;
      if (table === 'chats' && !chatsDue) continue;
      const { deleted, busy } = await this.drain(table, batch);
      result[table] = deleted;
      if (busy) break;
    }
    return result;
  }

  private get intervalMs(): number {
    return this.ctx.config.retentionIntervalSeconds * 1000;
  }

  /** Batches until nothing is due; `busy` when another instance turned out to be pruning. */
  private async drain(table: RetainedTable, batch: () => Promise<Batch | null>): Promise<{ deleted: number; busy: boolean }> {
    let deleted = 0;
    while (!this.stopped) {
      const done = await batch();
      if (!done) return { deleted, busy: true };
      deleted += done.deleted;
      if (done.deleted > 0) this.ctx.metrics.retentionDeleted.labels(table).inc(done.deleted);
      if (!done.more) break;
      await nextTurn();
    }
    return { deleted, busy: false };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => {
        this.running = null;
        this.schedule(this.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const started = Date.now();
    try {
      const deleted = await this.pass();
      if (Object.values(deleted).some((n) => n > 0)) {
        this.ctx.log.info({ deleted, ms: Date.now() - started }, 'retention pass deleted old rows');
      }
    } catch (err) {
      // The next pass tries again; nothing is lost by waiting.
      this.unavailable.report(err, this.failedPasses, { log: this.ctx.log, msg: 'retention pass failed' });
    }
  }
}

export const retentionWorker: Worker = async (app, ctx) => {
  const retention = new Retention(ctx, { unavailable: app.unavailableLog });
  retention.start();
  return () => retention.stop();
};
