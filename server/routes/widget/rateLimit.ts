/**
 * Rate limits of the public widget API, per visitor and per address. In one
 * process: token buckets in memory. With REDIS_URL: a counter per key and
 * window in Redis (INCR, expiring with the window), so every instance counts
 * together; should Redis fail, the in-memory bucket decides. A refusal is 429
 * with a sentence the visitor can read and Retry-After.
 */
import type { Redis } from 'ioredis';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors/AppError.js';
import { deploymentPrefix } from '../../realtime/namespace.js';
import { closeRedis, connectRedis, waitReady } from '../../realtime/redis.js';

export interface Limit {
  name: string;
  /** Requests allowed per window (the bucket's size). */
  capacity: number;
  windowMs: number;
  message: string;
}

const MINUTE = 60_000;
const slow = (what: string): string => `You are ${what} too quickly; please wait a moment and try again.`;

/** Generous enough for a busy office behind one address and for scripted pages; tight enough to stop floods. */
export const LIMITS = {
  sessionPerIp: { name: 'session-ip', capacity: 600, windowMs: MINUTE, message: slow('opening the chat') },
  messagePerVisitor: { name: 'message-v', capacity: 60, windowMs: MINUTE, message: slow('sending messages') },
  messagePerIp: { name: 'message-ip', capacity: 600, windowMs: MINUTE, message: slow('sending messages') },
  uploadPerVisitor: { name: 'upload-v', capacity: 10, windowMs: MINUTE, message: slow('sending files') },
  uploadPerIp: { name: 'upload-ip', capacity: 30, windowMs: MINUTE, message: slow('sending files') },
  offlinePerVisitor: { name: 'offline-v', capacity: 5, windowMs: 10 * MINUTE, message: slow('sending offline messages') },
  offlinePerIp: { name: 'offline-ip', capacity: 20, windowMs: 10 * MINUTE, message: slow('sending offline messages') },
  callbackPerVisitor: { name: 'callback-v', capacity: 5, windowMs: 10 * MINUTE, message: slow('asking for calls') },
  callbackPerIp: { name: 'callback-ip', capacity: 20, windowMs: 10 * MINUTE, message: slow('asking for calls') },
  actionPerVisitor: { name: 'action-v', capacity: 300, windowMs: MINUTE, message: slow('making changes') },
} as const satisfies Record<string, Limit>;

/** Atomically: count this request in the key's window; returns [count, ms left in the window]. */
const COUNT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

const SWEEP_MS = MINUTE;

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number; windowMs: number }>();
  private redis: Redis | null = null;
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

  async close(): Promise<void> {
    clearInterval(this.sweeper);
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
    try {
      this.redis ??= connectRedis(this.ctx.config.redisUrl as string, 'commands', this.ctx.log);
      this.connected ??= waitReady(this.redis, 2000);
      this.prefix ??= deploymentPrefix(this.ctx.store, this.ctx.config);
      await this.connected;
      const window = Math.floor(this.ctx.clock() / limit.windowMs);
      const redisKey = `${await this.prefix}rl:${limit.name}:${window}:${key}`;
      const [count, ttl] = (await this.redis.eval(COUNT, 1, redisKey, String(limit.windowMs))) as [number, number];
      return count > limit.capacity ? Math.max(ttl, 1000) : null;
    } catch (err) {
      // Every call fails while Redis is away: one line every 10 s is enough.
      if (Date.now() - this.lastWarned > 10_000) {
        this.lastWarned = Date.now();
        this.ctx.log.warn({ err: (err as Error).message }, 'rate limit: Redis unavailable, counting in memory');
      }
      return this.takeLocal(limit, key);
    }
  }

  /** Forgets buckets that have refilled: they hold nothing a new bucket would not. */
  private sweep(): void {
    const now = this.ctx.clock();
    for (const [id, bucket] of this.buckets) if (now - bucket.at > bucket.windowMs) this.buckets.delete(id);
  }
}
