/**
 * Redis connections of the realtime layer. Commands (publish, presence) fail
 * fast while Redis is away instead of queueing, so the relay never waits on
 * it; the subscriber connection queues and resubscribes by itself when Redis
 * comes back. Errors are logged, never thrown at the process.
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export type RedisRole = 'commands' | 'subscriber';

export function connectRedis(url: string, role: RedisRole, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    connectionName: `parley-${role}`,
    enableOfflineQueue: role === 'subscriber',
    maxRetriesPerRequest: role === 'subscriber' ? null : 1,
    commandTimeout: role === 'subscriber' ? undefined : 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    // A Redis outage emits an error per reconnection attempt: log one every 10 s.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log.warn({ err: err.message, role }, 'redis connection error');
  });
  return redis;
}

/** Resolves once the connection is ready, or after timeoutMs (the service starts without Redis and recovers). */
export function waitReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

/** quit() politely, disconnect() if Redis does not answer. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await Promise.race([redis.quit(), new Promise((_, reject) => setTimeout(() => reject(new Error('quit timed out')), 1000))]);
  } catch {
    redis.disconnect();
  }
}
