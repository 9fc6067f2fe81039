/**
 * The deliverer worker: sends due `deliveries` rows and records each attempt.
 * It wakes at once when this process commits deliveries (signal 'deliveries'),
 * keeps a timer for the next due row, and polls every second only as the
 * backstop (rows written by other instances, lost wake-ups). Claimed rows are
 * sent concurrently, at most MAX_IN_FLIGHT at a time. stop() claims nothing
 * more and waits for the attempts in flight, so no attempt is left
 * half-recorded; one still running after STOP_GRACE_MS (a slow event-webhook
 * receiver) is abandoned and its row released uncounted, to keep shutdown
 * within the 10 s budget. A row of a killed process is claimable again once
 * its lock expires. Whatever a receiver answers, the attempt ends recorded:
 * send.ts turns every answer into a result without throwing, and an
 * exception while judging one is logged and recorded as a failed attempt.
 *
 * Attempts that end in the same turn of the event loop, or while the previous
 * batch is being written, are recorded together (one statement, one commit:
 * the round trip per delivery that bounded PostgreSQL), when recording is the
 * row's one UPDATE; an attempt whose kind settles more (a final chat-channel
 * attempt: its message; a failed event webhook: the pause) keeps its own
 * transaction (queue.ts).
 *
 * The deliverer knows kinds only through kinds.ts: their timeouts, what a
 * delivered answer does, and a kind's own transport (mail goes out through
 * the SMTP mailer instead of HTTP, judged and retried the same way).
 *
 * While the database is unavailable every poll fails: those failures, and the
 * attempts that could not be recorded, are logged through the app's outage
 * throttle (errors/unavailableLog.ts: one warn line, then a summary at most
 * every 10 s); any other failure at error with its stack.
 */
import { setMaxListeners } from 'node:events';
import type { AppContext, Worker } from '../context.js';
import type { Delivery } from '../db/schema.js';
import { UnavailableLog, type UnavailableSource } from '../errors/unavailableLog.js';
import type { DeliveryKind, Transport } from './kind.js';
import { deliveryKinds, kindOf, policyFor } from './kinds.js';
import { deadlineDecision, decide, failedDecision, type Decision } from './outcomes.js';
import { claimDue, isPlainRecord, nextDueAt, recordAttempt, recordPlainAttempts, releaseClaim, type AttemptRecord, type Claim } from './queue.js';
import { closeIdleConnections, sendOnce, type SendResult } from './send.js';
import { signatureHeaders } from './signer.js';

export const MAX_IN_FLIGHT = 32;
export const POLL_MS = 1000;
/** Below this much time left before a row's deadline, an attempt is pointless: the row fails at once. */
const MIN_ATTEMPT_MS = 200;
/** Shortest wait when rows are due but were not claimable (another instance is claiming them). */
const MIN_WAIT_MS = 25;
/** How long stop() lets attempts run (longer than a chat-channel attempt, 2.5 s). */
export const STOP_GRACE_MS = 3000;

/** Failed claim rounds (one a second while the database is down) and unrecorded attempts, in the outage log. */
const POLLS: UnavailableSource = { name: 'deliverer', first: 'claiming due deliveries failed', unit: ['poll', 'polls'], verb: 'failed' };
const RECORDS: UnavailableSource = { name: 'deliverer', first: 'recording an attempt failed', unit: ['attempt', 'attempts'], verb: 'not recorded' };

export class Deliverer {
  private stopping = false;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly inflight = new Set<Promise<void>>();
  private dueTimer: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private readonly onSignal = (): void => this.wake();
  private readonly abandon = new AbortController();
  private readonly records: RecordBatcher;
  private readonly unavailable: UnavailableLog;
  private readonly ownUnavailable: boolean;
  /** The transports of kinds not sent over HTTP (mail), opened once. */
  private readonly transports = new Map<DeliveryKind, Transport>();

  /** `unavailable`: the app's outage log (app.unavailableLog); a log of its own when not given. */
  constructor(
    private readonly ctx: AppContext,
    options: { unavailable?: UnavailableLog } = {},
  ) {
    // Every attempt in flight listens to it.
    setMaxListeners(MAX_IN_FLIGHT + 8, this.abandon.signal);
    this.records = new RecordBatcher(ctx);
    for (const kind of Object.values(deliveryKinds)) {
      if (kind.openTransport) this.transports.set(kind.kind, kind.openTransport(ctx));
    }
    this.ownUnavailable = !options.unavailable;
    this.unavailable = options.unavailable ?? new UnavailableLog({ log: ctx.log });
  }

  start(): void {
    this.ctx.signals.on('deliveries', this.onSignal);
    this.poller = setInterval(this.onSignal, POLL_MS);
    this.poller.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.ctx.signals.off('deliveries', this.onSignal);
    if (this.poller) clearInterval(this.poller);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    await this.running;
    const grace = setTimeout(() => this.abandon.abort(), STOP_GRACE_MS);
    await Promise.allSettled([...this.inflight]);
    clearTimeout(grace);
    // Nothing lingers after shutdown: the pooled keep-alive connections go too.
    closeIdleConnections();
    for (const transport of this.transports.values()) transport.close();
    if (this.ownUnavailable) this.unavailable.close();
  }

  /**
   * Runs a claim round soon, or right after the one under way. Wake-ups of one
   * turn of the event loop (attempts ending together) make one round, which
   * claims their room in one statement instead of one claim per attempt.
   */
  wake(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (this.stopping ? undefined : this.loop()))
      .finally(() => {
        this.running = null;
      });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.round();
      } catch (err) {
        if (!this.stopping) this.unavailable.report(err, POLLS, { log: this.ctx.log, msg: 'deliverer: claiming due deliveries failed' });
      }
    } while (this.again && !this.stopping);
  }

  private async round(): Promise<void> {
    const room = MAX_IN_FLIGHT - this.inflight.size;
    if (room > 0) {
      const claims = await claimDue(this.ctx, room, this.ctx.clock());
      for (const claim of claims) this.track(claim);
      if (claims.length === room) this.again = true;
    }
    // When full, the end of an attempt wakes us; no timer needed.
    if (this.inflight.size < MAX_IN_FLIGHT && !this.again) await this.scheduleNext();
  }

  private async scheduleNext(): Promise<void> {
    const due = await nextDueAt(this.ctx);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = null;
    if (due === null || this.stopping) return;
    const wait = Math.max(due - this.ctx.clock(), MIN_WAIT_MS);
    // Far-off rows are found by the poller; the timer is for precise short waits (the 3 s cadence).
    if (wait > POLL_MS) return;
    this.dueTimer = setTimeout(this.onSignal, wait);
    this.dueTimer.unref();
  }

  private track(claim: Claim): void {
    const done: Promise<void> = this.attempt(claim)
      .catch((err: unknown) =>
        this.unavailable.report(err, RECORDS, { log: this.ctx.log, msg: 'deliverer: recording an attempt failed', fields: { deliveryId: claim.row.id } }),
      )
      .finally(() => {
        this.inflight.delete(done);
        this.wake();
      });
    this.inflight.add(done);
  }

  private async attempt(claim: Claim): Promise<void> {
    const { ctx } = this;
    const { row } = claim;
    const started = ctx.clock();
    const left = row.deadline_at === null ? Infinity : row.deadline_at - started;
    if (left < MIN_ATTEMPT_MS) {
      await this.finish(claim, deadlineDecision(row, started), null);
      return;
    }
    const timeoutMs = Math.min(policyFor(row.kind).timeoutMs, left);
    const transport = this.transports.get(row.kind);
    const result = transport ? await transport.send(row, timeoutMs) : await this.sendHttp(claim, started, timeoutMs);
    if (result.failure === 'aborted') {
      await releaseClaim(ctx, claim);
      return;
    }
    let decision: Decision;
    try {
      decision = decide(row, result, ctx.clock());
    } catch (err) {
      // A bug, not the receiver's fault; still the attempt ends recorded (failed, with the reason), never re-sent forever.
      ctx.log.error({ err, deliveryId: row.id }, 'deliverer: judging an answer failed');
      decision = failedDecision(row, `the answer could not be judged: ${(err as Error)?.message ?? String(err)}`, ctx.clock());
    }
    const updated = await this.finish(claim, decision, result);
    const delivered = kindOf(row.kind).delivered;
    if (updated && decision.status === 'delivered' && delivered) {
      await delivered(ctx, updated, result).catch((err: unknown) => ctx.log.error({ err, deliveryId: row.id }, 'deliverer: acting on an answer failed'));
    }
  }

  private async sendHttp(claim: Claim, started: number, timeoutMs: number): Promise<SendResult> {
    const { row } = claim;
    try {
      return await sendOnce({
        url: row.url,
        body: row.body,
        headers: { ...signatureHeaders(claim.secret, row.webhook_id, row.body, started) },
        chunked: row.chunked === 1,
        timeoutMs,
        allowPrivate: this.ctx.config.outboundAllowPrivate,
        signal: this.abandon.signal,
      });
    } catch (err) {
      // Only signing can throw (a missing or malformed secret): a configuration problem, not worth retrying.
      return { ok: false, excerpt: '', error: `could not sign the request: ${(err as Error).message}`, failure: 'blocked' };
    }
  }

  private async finish(claim: Claim, decision: Decision, result: SendResult | null): Promise<Delivery | null> {
    const { ctx } = this;
    const updated = isPlainRecord(claim, decision)
      ? await this.records.record({ claim, decision, result, now: ctx.clock() })
      : await recordAttempt(ctx, claim, decision, result, ctx.clock());
    if (!updated) {
      ctx.log.warn({ deliveryId: claim.row.id }, 'deliverer: claim lost before recording (redelivered or taken over); result dropped');
      return null;
    }
    ctx.metrics.deliveries.labels(claim.row.kind, decision.outcome).inc();
    const level = decision.status === 'failed' ? 'info' : 'debug';
    ctx.log[level](
      { deliveryId: updated.id, kind: updated.kind, attempts: updated.attempts, status: updated.status, error: updated.last_error },
      'outbound delivery attempt',
    );
    return updated;
  }
}

interface Pending {
  record: AttemptRecord;
  resolve: (row: Delivery | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes plain attempt records (isPlainRecord) in batches: the first waits for
 * the end of the event loop's turn (attempts that end together), then one
 * batch is written at a time and whatever arrives meanwhile makes the next.
 * A row twice in the queue (its lock expired and it was claimed again) goes in
 * separate batches; its own claim decides which write holds. When a batch's
 * write fails, each of its records is written alone, so a row the store
 * refuses fails only itself, as before batching.
 */
class RecordBatcher {
  private queue: Pending[] = [];
  private busy = false;

  constructor(private readonly ctx: AppContext) {}

  record(record: AttemptRecord): Promise<Delivery | null> {
    return new Promise<Delivery | null>((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (this.busy) return;
      this.busy = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch: Pending[] = [];
        const later: Pending[] = [];
        const ids = new Set<number>();
        for (const p of this.queue) {
          const id = p.record.claim.row.id;
          if (batch.length < MAX_IN_FLIGHT && !ids.has(id)) {
            ids.add(id);
            batch.push(p);
          } else later.push(p);
        }
        this.queue = later;
        try {
          const rows = await recordPlainAttempts(
            this.ctx,
            batch.map((p) => p.record),
          );
          batch.forEach((p, i) => p.resolve(rows[i]));
        } catch (err) {
          if (batch.length === 1) batch[0].reject(err);
          // One row the store refuses must not fail the others: each alone, as before batching.
          else await Promise.all(batch.map((p) => recordPlainAttempts(this.ctx, [p.record]).then(([row]) => p.resolve(row), p.reject)));
        }
      }
    } finally {
      // Checked and cleared in one synchronous step: a record() after this starts a new drain.
      this.busy = false;
    }
  }
}

export const startDeliverer: Worker = async (app, ctx) => {
  const deliverer = new Deliverer(ctx, { unavailable: app.unavailableLog });
  deliverer.start();
  return () => deliverer.stop();
};
