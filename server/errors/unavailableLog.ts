/**
 * The log of failures while the database is unavailable. During an outage
 * every request fails the same way, and one error line with a stack per
 * request buried everything else (about 480 lines in 3 s); so did the
 * workers that poll (the deliverer, every second) and the sockets that
 * clients reopen in a loop. So, per source (requests answered 503, the
 * deliverer's polls, agent streams failing to open, ...), at level warn: the
 * first failure of an outage with its error; then at most one summary line
 * per interval ("deliverer: database unavailable: 10 polls failed in the last
 * 10 s"); and, once a whole interval passes without a failure of that source,
 * one info line saying so (the outage is over, or at least nobody is hitting
 * it). Each source has its own outage: requests may still fail while no
 * socket tries. Other errors (bugs) never count here: report() logs them as
 * before, at error with their stack.
 */
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../lib/time.js';

type Logger = Pick<FastifyBaseLogger, 'warn' | 'info'>;
type ErrorLogger = Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;

/**
 * Database connection failures (server down, restarting, shutting down,
 * connection lost or not made in time), a statement cancelled by
 * DB_STATEMENT_TIMEOUT_MS (57014) or not answered at all (db/pgTimeouts.ts),
 * and a prepared statement of a table another instance has just migrated
 * (db/pgStatements.ts: prepared anew on its next run): the request answers
 * 503 so clients retry, never 500 (errors/handler.ts), and workers and
 * sockets log it through the outage throttle, never at error.
 */
export function isUnavailable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57014',
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08001',
      '08003',
      '08004',
      '08006',
      'SQLITE_BUSY',
    ].includes(code) ||
    /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|cached plan must not change result type/i.test(
      String((err as Error)?.message ?? ''),
    )
  );
}

/**
 * What fails, as its lines name it. Each distinct object is one source with
 * its own count (module-level constants, or one per worker instance).
 */
export interface UnavailableSource {
  /** Starts each line ("deliverer: database unavailable: ...") and is logged as `source`; '' for requests. */
  readonly name: string;
  /** The first line of an outage, after "database unavailable: ": 'claiming due deliveries failed'. */
  readonly first: string;
  /** In the first line, "further <this> are counted": 'failures' unless set. */
  readonly further?: string;
  /** One failure and several, for the summaries: ['poll', 'polls']. */
  readonly unit: readonly [string, string];
  /** What happened to each: 'failed', 'failed to open', 'answered 503'. */
  readonly verb: string;
  /** The summary's field for the count: 'failures' unless set. */
  readonly countField?: string;
  /** Summaries no more often than this (a source that fails once per long tick, like retention, counts over several). */
  readonly intervalMs?: number;
}

/**
 * A background worker's passes (the upload sweep, the daily report rollup):
 * "<name> failed", counted in passes, summarised every two passes at most.
 */
export function passesOf(name: string, passIntervalMs: number): UnavailableSource {
  return { name, first: `${name} failed`, unit: ['pass', 'passes'], verb: 'failed', intervalMs: 2 * passIntervalMs };
}

/** Requests answered 503 (errors/handler.ts): the default source. */
export const REQUESTS: UnavailableSource = {
  name: '',
  first: 'answering 503',
  further: '503s',
  unit: ['request', 'requests'],
  verb: 'answered 503',
  countField: 'requests',
};

/** Runs fn once after ms; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const unrefTimeout: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface UnavailableLogOptions {
  /** Where the summaries go (the first line of an outage goes to the caller's logger). */
  log: Logger;
  clock?: Clock;
  /** At most one summary per this many ms, per source. */
  intervalMs?: number;
  schedule?: Schedule;
}

interface Outage {
  since: number;
  windowStart: number;
  /** Failures since windowStart, not counting the first of the outage (it has its own line). */
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
  private readonly outages = new Map<UnavailableSource, Outage>();
  private closed = false;

  constructor(options: UnavailableLogOptions) {
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 10_000;
    this.schedule = options.schedule ?? unrefTimeout;
  }

  /**
   * One failure of `source` because the database is unavailable (`err`);
   * `log` is the caller's logger (a request's: its line carries the reqId),
   * `fields` go on the first line of an outage only.
   */
  failed(err: unknown, log: Logger = this.log, source: UnavailableSource = REQUESTS, fields: Record<string, unknown> = {}): void {
    const lastError = describe(err);
    const outage = this.outages.get(source);
    if (outage) {
      outage.inWindow += 1;
      outage.total += 1;
      outage.lastError = lastError;
      return;
    }
    const now = this.clock();
    this.outages.set(source, { since: now, windowStart: now, inWindow: 0, total: 1, lastError, cancel: () => undefined });
    log.warn(
      { ...this.named(source), ...fields, err },
      `${prefix(source)}database unavailable: ${source.first}; further ${source.further ?? 'failures'} are counted and logged at most once per ${seconds(this.windowMs(source))} s`,
    );
    this.arm(source);
  }

  /**
   * A failure of `source`, whatever it is: the database unavailable
   * (isUnavailable) goes through failed(); anything else is logged as it
   * always was, at `level` (error unless set) with its stack, as `msg`.
   */
  report(err: unknown, source: UnavailableSource, line: { log?: ErrorLogger; msg: string; fields?: Record<string, unknown>; level?: 'error' | 'warn' }): void {
    const log = line.log ?? (this.log as ErrorLogger);
    if (isUnavailable(err)) this.failed(err, log, source, line.fields);
    else log[line.level ?? 'error']({ ...line.fields, err }, line.msg);
  }

  /** Stops the timers (the app is closing); nothing is logged afterwards but the first line of a new outage. */
  close(): void {
    this.closed = true;
    for (const outage of this.outages.values()) outage.cancel();
    this.outages.clear();
  }

  private windowMs(source: UnavailableSource): number {
    return Math.max(this.intervalMs, source.intervalMs ?? 0);
  }

  private named(source: UnavailableSource): Record<string, unknown> {
    return source.name ? { source: source.name } : {};
  }

  private arm(source: UnavailableSource): void {
    const outage = this.outages.get(source);
    if (outage && !this.closed) outage.cancel = this.schedule(() => this.endOfWindow(source), this.windowMs(source));
  }

  private endOfWindow(source: UnavailableSource): void {
    const outage = this.outages.get(source);
    if (!outage || this.closed) return;
    const now = this.clock();
    const s = seconds(now - outage.windowStart);
    const [one, many] = source.unit;
    if (outage.inWindow > 0) {
      this.log.warn(
        { ...this.named(source), [source.countField ?? 'failures']: outage.inWindow, seconds: s, lastError: outage.lastError },
        `${prefix(source)}database unavailable: ${outage.inWindow} ${outage.inWindow === 1 ? one : many} ${source.verb} in the last ${s} s`,
      );
      outage.windowStart = now;
      outage.inWindow = 0;
      this.arm(source);
      return;
    }
    const since = new Date(outage.since).toISOString();
    this.log.info(
      { ...this.named(source), [source.countField ?? 'failures']: outage.total, since },
      `${prefix(source)}database available again: no ${one} ${source.verb} in the last ${s} s; ${outage.total} did since ${since}`,
    );
    this.outages.delete(source);
  }
}

function prefix(source: UnavailableSource): string {
  return source.name ? `${source.name}: ` : '';
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** The error in one short line for the summaries (code and message, no stack). */
function describe(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(err);
  return typeof code === 'string' && code !== '' ? `${code}: ${text}` : text;
}
