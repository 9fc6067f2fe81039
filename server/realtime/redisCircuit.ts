/**
 * The circuit of one Redis command connection. A frozen Redis (the process
 * stopped, a network path that drops packets) keeps the TCP connection open,
 * so every command waits out the command timeout (redis.ts): a visitor call
 * that counts two rate limits waited twice that. After a call fails for want
 * of Redis (a timeout, a connection that is not writable; not an error Redis
 * answered), the connection is marked down: callers take their fallback at
 * once, without sending anything, while one PING at a time
 * (REDIS_PROBE_INTERVAL_MS apart) looks for Redis in the background. The
 * first answer, or the connection becoming ready again after a reconnect,
 * marks it up: callers use Redis again by themselves.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** The pause between two probes of a Redis marked down (each may itself wait out the command timeout). */
export const REDIS_PROBE_INTERVAL_MS = 1000;

export class RedisCircuit {
  private down = false;
  private probeTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly onUp: Array<() => void> = [];

  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
    private readonly probeIntervalMs = REDIS_PROBE_INTERVAL_MS,
  ) {
    redis.on('ready', () => this.markUp());
  }

  /** True while callers skip Redis. */
  get isDown(): boolean {
    return this.down;
  }

  /** Runs `fn` after each return from down to up (subscribers catch up, say). */
  whenUp(fn: () => void): void {
    this.onUp.push(fn);
  }

  /**
   * `call` against Redis, or `fallback` at once while Redis is marked down
   * (with null: nothing was sent). A call that fails takes the fallback with
   * its error; one that failed for want of Redis also marks it down.
   */
  async run<T>(call: (redis: Redis) => Promise<T>, fallback: (err: Error | null) => T): Promise<T> {
    if (this.down || this.stopped) return fallback(null);
    try {
      return await call(this.redis);
    } catch (err) {
      const error = err instanceof Error ? err : new Error('redis call failed', { cause: err });
      if (!answeredByRedis(error)) this.markDown(error);
      return fallback(error);
    }
  }

  /** Stops probing (the connection is being closed). */
  stop(): void {
    this.stopped = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private markDown(err: Error): void {
    if (this.down || this.stopped) return;
    this.down = true;
    this.log.warn({ err: err.message, redis: this.name }, 'redis marked down: calls skip it and fall back until it answers again');
    this.scheduleProbe();
  }

  private markUp(): void {
    if (!this.down || this.stopped) return;
    this.down = false;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
    this.log.info({ redis: this.name }, 'redis answers again: calls use it');
    for (const fn of this.onUp) fn();
  }

  /** One probe in flight at most: the next is scheduled when this one has failed. */
  private scheduleProbe(): void {
    if (this.stopped || !this.down) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      this.redis.ping().then(
        () => this.markUp(),
        () => this.scheduleProbe(),
      );
    }, this.probeIntervalMs);
    this.probeTimer.unref();
  }
}

/** An error reply (a script error, LOADING, OOM …): Redis is there and answered fast; nothing to wait out. */
function answeredByRedis(err: Error): boolean {
  return err.name === 'ReplyError';
}
