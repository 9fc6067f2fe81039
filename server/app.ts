/**
 * buildApp(config) → a ready Fastify instance with every route and background
 * worker of Parley. It never listens: main.ts does, tests use inject() or
 * listen on port 0 themselves. app.close() stops the workers and the store.
 */
import crypto from 'node:crypto';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import { vapidKeys } from './push/vapid.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/config.js';
import type { AppContext } from './context.js';
import { openStore } from './db/database.js';
import { bootstrapAccount, type BootstrapResult } from './domain/accounts/bootstrapAccount.js';
import { InboundWriter } from './domain/chatChannel/receiveInbound.js';
import { chatChannelCache } from './domain/chatChannel/findChannel.js';
import type { ChannelCache } from './domain/chatChannel/channelCache.js';
import { watchUntrustedProxies } from './routes/untrustedProxy.js';
import { registerErrorHandler } from './errors/handler.js';
import { Signals } from './events/outbox.js';
import { registerJsonBodyParser } from './lib/jsonBody.js';
import { stripNul } from './lib/stripNul.js';
import { logRequests, withRedaction } from './lib/logRedaction.js';
import { prettyStream } from './lib/prettyLog.js';
import { systemClock, type Clock } from './lib/time.js';
import { createMetrics } from './metrics.js';
import { openRealtime, type Realtime } from './realtime/index.js';
import { SocketBounds } from './realtime/socketBounds.js';
import { WidgetSockets } from './realtime/widgetSockets.js';
import { ChannelRules } from './realtime/channelVisibility.js';
import { Wake } from './lib/wake.js';
import { auditRequests } from './routes/audited.js';
import { registerRoutes } from './routes/index.js';
import { startWorkers } from './workers.js';

export interface BuildOptions {
  config: Config;
  clock?: Clock;
  /** pino options or false; defaults to the configured level. */
  logger?: FastifyServerOptions['logger'];
  /** Start the background workers (relay, deliverer, presence sweeper). Default true. */
  workers?: boolean;
  /**
   * Tests only: runs just before the app's routes are registered, so an onRoute
   * hook added here sees every route, and extra routes (one that throws, say)
   * get the real hooks and error handler.
   */
  beforeRoutes?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * When the first account (and its administrator) is created on an empty
   * database: 'build' (the default: tests) or 'later', when main.ts calls
   * app.createFirstAccount() once the port is bound, so that a start that
   * fails (a busy port) leaves no account behind and prints no password.
   */
  bootstrap?: 'build' | 'later';
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** The first start's outcome: with bootstrap 'later', `created: false` until createFirstAccount() ran. */
    bootstrap: BootstrapResult;
    /** Creates the first account if the database has none (once; later calls answer the first outcome). */
    createFirstAccount(): Promise<BootstrapResult>;
  }
}

export type App = FastifyInstance;

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: withRedaction(options.logger ?? { level: config.logLevel, ...(config.logFormat === 'pretty' ? { stream: prettyStream() } : {}) }),
    // One line per request, written when the answer has gone (logRequests below).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
    // X-Forwarded-For (and -Proto, -Host) is believed only from the proxies listed in TRUST_PROXY,
    // none by default: no client can choose its own address and so dodge per-address limits.
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    bodyLimit: 1024 * 1024,
    // Slow clients cannot hold connections (docs/SECURITY.md): the headers must arrive within
    // HEADERS_TIMEOUT_MS, the whole request within REQUEST_TIMEOUT_MS (both answered 408 and
    // closed), and a connection silent both ways for IDLE_TIMEOUT_MS mid-request is closed.
    // Node checks the first two every connectionsCheckingInterval (30 s by default): checked
    // often enough that a timeout is never overshot by more than a second. WebSockets are not
    // concerned: an upgraded connection is the ws library's (with its own ping), not the parser's.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.idleTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 4)),
    },
    forceCloseConnections: false,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  logRequests(app);

  const store = await openStore(config);
  let bootstrap: BootstrapResult = { created: false, accountId: 0 };
  let bootstrapping: Promise<BootstrapResult> | null = null;
  const createFirstAccount = (): Promise<BootstrapResult> => {
    bootstrapping ??= bootstrapAccount(store.db, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      now: clock(),
      dialect: store.dialect,
    }).then((result) => {
      bootstrap = result;
      return result;
    });
    return bootstrapping;
  };
  let realtime: Realtime;
  try {
    if ((options.bootstrap ?? 'build') === 'build') await createFirstAccount();
    // The VAPID key pair is made at first start (push/vapid.ts), before any push can be asked for.
    await vapidKeys(store.db, clock());
    realtime = await openRealtime(config, store, app.log);
  } catch (err) {
    await store.close();
    throw err;
  }

  const metrics = createMetrics();
  const signals = new Signals();
  const hub = realtime.hub;
  // A channel changed on any instance reaches this one's cache as its channel.changed event (CHAT-CHANNEL.md);
  // after a hub reset (events may have been missed) nothing kept is trusted.
  const chatChannels: ChannelCache = chatChannelCache(store.db, (accountId) => {
    hub.subscribe(
      accountId,
      (e) => {
        if (e.type === 'channel.changed') chatChannels.evictChannel(e.data.channel_id);
      },
      () => chatChannels.clear(),
    );
  });
  const ctx: AppContext = {
    config,
    store,
    db: store.db,
    clock,
    log: app.log,
    metrics,
    signals,
    hub: realtime.hub,
    presence: realtime.presence,
    sockets: new SocketBounds({ address: config.wsMaxPerAddress, visitor: config.wsMaxPerVisitor, agent_token: config.wsMaxPerAgentToken }, (bound) =>
      metrics.socketRefusals.labels(bound).inc(),
    ),
    widgetSockets: new WidgetSockets(),
    inbound: new InboundWriter({ db: store.db, signals, metrics }),
    chatChannels,
    channelRules: new ChannelRules(store.db),
    erasureWake: new Wake(),
    // The first account's id; 0 until it exists (bootstrap 'later': until main.ts created it).
    get defaultAccountId() {
      return bootstrap.accountId;
    },
  };
  app.decorate('ctx', ctx);
  app.decorate('bootstrap', { getter: () => bootstrap });
  app.decorate('createFirstAccount', createFirstAccount);
  app.decorateRequest('agent', null);
  app.decorateRequest('authToken', null);

  registerErrorHandler(app);
  registerJsonBodyParser(app);
  watchUntrustedProxies(app, ctx);
  auditRequests(app, ctx);
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined && request.body !== null) request.body = stripNul(request.body);
    if (request.query && typeof request.query === 'object') request.query = stripNul(request.query);
    if (request.params && typeof request.params === 'object') request.params = stripNul(request.params);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  });
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics.httpDuration.labels(request.method, request.routeOptions.url ?? 'unmatched', String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });

  await app.register(cookie);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: '1',
        description: 'Agent and admin API, chat channel and widget endpoints of Parley.',
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });

  const stopWorkers = await startWorkers(app, ctx, options.workers ?? true);
  app.addHook('onClose', async () => {
    await stopWorkers();
    // After the workers: the relay publishes until it stops.
    await realtime.close();
    await store.close();
  });

  if (options.beforeRoutes) await options.beforeRoutes(app);
  await registerRoutes(app, ctx);
  await app.ready();
  return app;
}
