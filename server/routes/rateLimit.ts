/**
 * Rate limits of the public endpoints (the widget API, the chat channel), per
 * visitor or per address. take(): in one process token buckets in memory; with
 * REDIS_URL a counter per key and window in Redis (INCR, expiring with the
 * window), so every instance counts together; should Redis fail, the in-memory
 * count decides (the limits fail open to this instance's count, never to a
 * refusal or an error). A call that fails for want of Redis marks it down
 * (realtime/redisCircuit.ts): later calls count in memory at once instead of
 * each waiting out the command timeout, until Redis answers again. assertOpen() / recordFailure(): failures only (a guessed
 * secret, say) in a window that starts at a key's first failure; once a key
 * has `capacity` of them, every request of that key is refused until the
 * window ends. A refusal is 429 with the limit's sentence and Retry-After.
 */
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/AppError.js';
import { deploymentPrefix } from '../realtime/namespace.js';
import { closeRedis, connectRedis, waitReady } from '../realtime/redis.js';
import { RedisCircuit } from '../realtime/redisCircuit.js';

export interface Limit {
  name: string;
  /** Requests allowed per window (the bucket's size). */
  capacity: number;
  windowMs: number;
  message: string;
}

/** Atomically: count this request in the key's window; returns [count, ms left in the window]. */
const COUNT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Atomically: count one failure in the key's window (which starts at its first failure); returns [count, ms left]. */
const FAIL = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** The key's failures so far and ms left in its window ([0, -2] when it has none). */
const FAILURES = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`;

const SWEEP_MS = 60_000;

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number; windowMs: number }>();
  /** Failure windows of assertOpen/recordFailure: count, and when the window started. */
  private readonly failures = new Map<string, { count: number; start: number; windowMs: number }>();
  private redis: Redis | null = null;
  private circuit: RedisCircuit | null = null;
  /** First connection (commands fail fast while Redis is away, so the first ones wait for it, briefly). */
  private connected: Promise<boolean> | null = null;
  private prefix: Promise<string> | null = null;
  private lastWarned = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ctx: AppContext) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Counts one request of `key` against `limit`; 429 when over it. */
  async take(limit: Limit, key: string): Promise<void> {
    const retryMs = this.ctx.config.redisUrl ? await this.takeShared(limit, key) : this.takeLocal(limit, key);
    if (retryMs !== null) {
      throw new AppError('too_many_requests', limit.message, { 'retry-after': String(Math.max(1, Math.ceil(retryMs / 1000))) });
    }
  }

  /** 429 while `key` has `limit.capacity` failures or more in its current window; counts nothing. */
  async assertOpen(limit: Limit, key: string): Promise<void> {
    const [count, leftMs] = this.ctx.config.redisUrl ? await this.sharedFailures(limit, key, FAILURES) : this.localFailures(limit, key, false);
    if (count >= limit.capacity && leftMs > 0) {
      throw new AppError('too_many_requests', limit.message, { 'retry-after': String(Math.max(1, Math.ceil(leftMs / 1000))) });
    }
  }

  /** Counts one failure of `key`; its window starts at its first failure and lasts `limit.windowMs`. */
  async recordFailure(limit: Limit, key: string): Promise<void> {
    if (this.ctx.config.redisUrl) await this.sharedFailures(limit, key, FAIL);
    else this.localFailures(limit, key, true);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.circuit?.stop();
    if (this.redis) await closeRedis(this.redis);
    this.redis = null;
  }

  /** null: allowed; otherwise ms until a request would be. */
  private takeLocal(limit: Limit, key: string): number | null {
    const now = this.ctx.clock();
    const id = `${limit.name}:${key}`;
    const rate = limit.capacity / limit.windowMs;
    const bucket = this.buckets.get(id) ?? { tokens: limit.capacity, at: now, windowMs: limit.windowMs };
    bucket.tokens = Math.min(limit.capacity, bucket.tokens + Math.max(0, now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(id, bucket);
    if (bucket.tokens < 1) return (1 - bucket.tokens) / rate;
    bucket.tokens -= 1;
    return null;
  }

  private async takeShared(limit: Limit, key: string): Promise<number | null> {
    const window = Math.floor(this.ctx.clock() / limit.windowMs);
    return this.shared(
      async (redis, prefix) => {
        const [count, ttl] = (await redis.eval(COUNT, 1, `${prefix}rl:${limit.name}:${window}:${key}`, String(limit.windowMs))) as [number, number];
        return count > limit.capacity ? Math.max(ttl, 1000) : null;
      },
      () => this.takeLocal(limit, key),
    );
  }

  /** [failures in the window, ms left in it]; `count` adds one (starting the window at the first). */
  private localFailures(limit: Limit, key: string, count: boolean): [number, number] {
    const now = this.ctx.clock();
    const id = `${limit.name}:${key}`;
    let entry = this.failures.get(id);
    if (entry && now - entry.start >= entry.windowMs) {
      this.failures.delete(id);
      entry = undefined;
    }
    if (count) {
      entry ??= { count: 0, start: now, windowMs: limit.windowMs };
      entry.count += 1;
      this.failures.set(id, entry);
    }
    return entry ? [entry.count, entry.start + entry.windowMs - now] : [0, 0];
  }

  private async sharedFailures(limit: Limit, key: string, script: string): Promise<[number, number]> {
    return this.shared(
      async (redis, prefix) => (await redis.eval(script, 1, `${prefix}rf:${limit.name}:${key}`, String(limit.windowMs))) as [number, number],
      () => this.localFailures(limit, key, script === FAIL),
    );
  }

  /** `call` with Redis and the deployment's prefix; `local` when Redis failed or is marked down (at once then). */
  private async shared<T>(call: (redis: Redis, prefix: string) => Promise<T>, local: () => T): Promise<T> {
    let connection: { circuit: RedisCircuit; prefix: string };
    try {
      connection = await this.connect();
    } catch (err) {
      this.warnUnavailable(err);
      return local();
    }
    const { circuit, prefix } = connection;
    return circuit.run(
      (redis) => call(redis, prefix),
      (err) => {
        // null: skipped, Redis is marked down (the circuit said so once).
        if (err !== null) this.warnUnavailable(err);
        return local();
      },
    );
  }

  private async connect(): Promise<{ circuit: RedisCircuit; prefix: string }> {
    const redis = (this.redis ??= connectRedis(this.ctx.config.redisUrl as string, 'commands', this.ctx.log));
    const circuit = (this.circuit ??= new RedisCircuit(redis, 'rate limits', this.ctx.log));
    this.connected ??= waitReady(redis, 2000);
    // A read that failed (the database away for a moment) is tried again on the next call, not kept.
    const prefix = (this.prefix ??= deploymentPrefix(this.ctx.store).catch((err: unknown) => {
      this.prefix = null;
      throw err;
    }));
    await this.connected;
    return { circuit, prefix: await prefix };
  }

  private warnUnavailable(err: unknown): void {
    // Every call fails while Redis is away: one line every 10 s is enough.
    if (Date.now() - this.lastWarned > 10_000) {
      this.lastWarned = Date.now();
      this.ctx.log.warn({ err: (err as Error).message }, 'rate limit: Redis unavailable, counting in memory');
    }
  }

  /** Forgets buckets that have refilled: they hold nothing a new bucket would not. */
  private sweep(): void {
    const now = this.ctx.clock();
    for (const [id, bucket] of this.buckets) if (now - bucket.at > bucket.windowMs) this.buckets.delete(id);
    for (const [id, entry] of this.failures) if (now - entry.start >= entry.windowMs) this.failures.delete(id);
  }
}
