/**
 * What every route and worker of one process shares: config, store, clock,
 * logger, metrics and the background parts (relay, deliverer, realtime hub).
 * Built by app.ts; tests build it through buildApp().
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import type { InboundWriter } from './domain/chatChannel/receiveInbound.js';
import type { Db, Store } from './db/database.js';
import type { Signals } from './events/outbox.js';
import type { Clock } from './lib/time.js';
import type { Metrics } from './metrics.js';
import type { ChannelCache } from './domain/chatChannel/channelCache.js';
import type { RealtimeHub } from './realtime/hub.js';
import type { Presence } from './realtime/presence.js';
import type { SocketBounds } from './realtime/socketBounds.js';
import type { WidgetSockets } from './realtime/widgetSockets.js';
import type { ChannelRules } from './realtime/channelVisibility.js';
import type { Wake } from './lib/wake.js';

export interface AppContext {
  readonly config: Config;
  readonly store: Store;
  readonly db: Db;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly metrics: Metrics;
  /** In-process wake-ups: outbox written, deliveries due. */
  readonly signals: Signals;
  /** Relayed events to sockets, in-process or across instances (Redis). */
  readonly hub: RealtimeHub;
  /** Who holds stream sockets, for the offline-after-grace rule. */
  readonly presence: Presence;
  /** How many WebSockets each address, visitor and agent token holds open here (WS_MAX_PER_*). */
  readonly sockets: SocketBounds;
  /** The visitor sockets this process holds: the domain closes an erased visitor's (realtime/widgetSockets.ts). */
  readonly widgetSockets: WidgetSockets;
  /** Which channels each agent with a socket open here may see, one rule per agent (realtime/channelVisibility.ts). */
  readonly channelRules: ChannelRules;
  /** Wakes this process's erasure worker when a job was written (domain/erasure/erasureWorker.ts). */
  readonly erasureWake: Wake;
  /** The chat channels this process keeps for the hot path, following every instance's changes (domain/chatChannel/findChannel.ts). */
  readonly chatChannels: ChannelCache;
  /** The chat channel's writer: inbound messages that arrive together share one transaction (domain/chatChannel/receiveInbound.ts). */
  readonly inbound: InboundWriter;
  /** Account created at first start (the service is multi-tenant in its model). */
  readonly defaultAccountId: number;
}

/** A background worker (the list is workers.ts): started with the app, it returns its stop function. */
export type Worker = (app: FastifyInstance, ctx: AppContext) => Promise<() => Promise<void>>;
