/**
 * The log of 503s while the database is unavailable. During an outage every
 * request fails the same way, and one error line with a stack per request
 * buried everything else (about 480 lines in 3 s). So, at level warn: the
 * first 503 of an outage with its error; then at most one summary line per
 * interval ("database unavailable: K requests answered 503 in the last N s");
 * and, once a whole interval passes without a 503, one info line saying so
 * (the outage is over, or at least nobody is hitting it). Unexpected errors
 * (500) never come here: they stay at error with their stack.
 */
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../lib/time.js';

type Logger = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/** Runs fn once after ms; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const unrefTimeout: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface UnavailableLogOptions {
  /** Where the summaries go (the first line of an outage goes to the request's logger). */
  log: Logger;
  clock?: Clock;
  /** At most one summary per this many ms. */
  intervalMs?: number;
  schedule?: Schedule;
}

interface Outage {
  since: number;
  windowStart: number;
  /** 503s since windowStart, not counting the first of the outage (it has its own line). */
  inWindow: number;
  total: number;
  lastError: string;
  cancel: () => void;
}

export class UnavailableLog {
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly schedule: Schedule;
  private outage: Outage | null = null;
  private closed = false;

  constructor(options: UnavailableLogOptions) {
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 10_000;
    this.schedule = options.schedule ?? unrefTimeout;
  }

  /** One request answered 503 because of `err`; `log` is the request's logger (its line carries the reqId). */
  failed(err: unknown, log: Logger = this.log): void {
    const lastError = describe(err);
    if (this.outage) {
      this.outage.inWindow += 1;
      this.outage.total += 1;
      this.outage.lastError = lastError;
      return;
    }
    const now = this.clock();
    this.outage = { since: now, windowStart: now, inWindow: 0, total: 1, lastError, cancel: () => undefined };
    log.warn({ err }, `database unavailable: answering 503; further 503s are counted and logged at most once per ${this.seconds(this.intervalMs)} s`);
    this.arm();
  }

  /** Stops the timer (the app is closing); nothing is logged afterwards. */
  close(): void {
    this.closed = true;
    this.outage?.cancel();
    this.outage = null;
  }

  private arm(): void {
    if (this.outage && !this.closed) this.outage.cancel = this.schedule(() => this.endOfWindow(), this.intervalMs);
  }

  private endOfWindow(): void {
    const outage = this.outage;
    if (!outage || this.closed) return;
    const now = this.clock();
    const seconds = this.seconds(now - outage.windowStart);
    if (outage.inWindow > 0) {
      this.log.warn(
        { requests: outage.inWindow, seconds, lastError: outage.lastError },
        `database unavailable: ${outage.inWindow} requests answered 503 in the last ${seconds} s`,
      );
      outage.windowStart = now;
      outage.inWindow = 0;
      this.arm();
      return;
    }
    const since = new Date(outage.since).toISOString();
    this.log.info(
      { requests: outage.total, since },
      `database available again: no request answered 503 in the last ${seconds} s; ${outage.total} did since ${since}`,
    );
    this.outage = null;
  }

  private seconds(ms: number): number {
    return Math.round(ms / 100) / 10;
  }
}

/** The error in one short line for the summaries (code and message, no stack). */
function describe(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(err);
  return typeof code === 'string' && code !== '' ? `${code}: ${text}` : text;
}
