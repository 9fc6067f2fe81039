/**
 * The realtime layer of one process: the hub (events to sockets) and presence
 * (who holds sockets). In-process without REDIS_URL; shared through Redis,
 * under the deployment's key prefix, with it. app.ts opens it after the store
 * and closes it after the workers (the relay publishes until it stops).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import type { Store } from '../db/database.js';
import { LocalHub, type RealtimeHub } from './hub.js';
import { deploymentPrefix } from './namespace.js';
import { LocalPresence, type Presence } from './presence.js';
import { RedisHub } from './redisHub.js';
import { RedisPresence } from './redisPresence.js';

export interface Realtime {
  hub: RealtimeHub;
  presence: Presence;
  close(): Promise<void>;
}

export async function openRealtime(config: Config, store: Store, log: FastifyBaseLogger): Promise<Realtime> {
  const graceMs = config.presenceGraceSeconds * 1000;
  let hub: RealtimeHub;
  let presence: Presence;
  if (config.redisUrl) {
    const prefix = await deploymentPrefix(store);
    [hub, presence] = await Promise.all([RedisHub.open(config.redisUrl, prefix, log), RedisPresence.open(config.redisUrl, prefix, log, { graceMs })]);
  } else {
    hub = new LocalHub((err) => log.error({ err }, 'realtime subscriber failed'));
    presence = new LocalPresence(graceMs);
  }
  return {
    hub,
    presence,
    close: async () => {
      await presence.close();
      await hub.close();
    },
  };
}
