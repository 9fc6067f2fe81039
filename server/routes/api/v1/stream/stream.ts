/**
 * GET /api/v1/stream?token=<token>&cursor=<last event id>: the agent app's
 * WebSocket. Frames: {"type","data","cursor"(event id),"chat_id"?,"seq"?}, in id
 * order, for the chats of the agent's channels (pending ones included) and the
 * account's channel-less events; after the replay of what the client missed
 * since its cursor, {"type":"ready","data":{"cursor":n}} says it is live (see
 * realtime/feed.ts for why a cursor never skips an event). A cursor older than
 * the events the server keeps (RETENTION_DAYS) gets
 * {"type":"reset","data":{"reason":"cursor_expired"}} before `ready` and no
 * replay: the client reloads what it shows, then goes on from `ready`'s cursor.
 *
 * Bounds (realtime/socketBounds.ts): one address, and one token, hold at most
 * WS_MAX_PER_ADDRESS / WS_MAX_PER_AGENT_TOKEN sockets here; beyond, 4429.
 *
 * Auth: ?token=, the Authorization header, or the web app's cookie (then the
 * Origin must be ours). A bad token upgrades and closes with 4401 and a reason,
 * so browser clients can tell "sign in again" from a network error. The server
 * pings every 25 s and terminates sockets that did not answer the last ping;
 * the same tick rechecks the token and catches up from the store, and so does
 * every agent.updated of the agent itself (a new password revokes its tokens;
 * a logout revokes one and records that event, so its stream closes at once).
 *
 * While the database is unavailable, clients reconnecting in a loop fail to
 * open again and again: those failures (and failed feeds and token checks)
 * go through the app's outage log (errors/unavailableLog.ts), one warn line
 * and then a summary at most every 10 s per kind; other failures are logged
 * at error with their stack.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AgentDto } from '../../../../../protocol/agent.js';
import type { AppContext } from '../../../../context.js';
import type { Agent } from '../../../../db/schema.js';
import { resolveToken } from '../../../../domain/auth/tokens.js';
import type { UnavailableSource } from '../../../../errors/unavailableLog.js';
import { assertNever, type EventPayloads, type EventType } from '../../../../events/catalogue.js';
import { EventFeed } from '../../../../realtime/feed.js';
import type { StreamEvent } from '../../../../realtime/hub.js';
import {
  CLOSE_BAD_REQUEST,
  CLOSE_FORBIDDEN,
  CLOSE_INTERNAL,
  CLOSE_TRY_AGAIN,
  CLOSE_UNAUTHORIZED,
  closeWith,
  keepAlive,
  parseCursor,
  RESET_FRAME,
  sendJson,
  sendSerialized,
} from '../../../../realtime/socket.js';
import { bearerToken, TOKEN_COOKIE } from '../../../authenticate.js';
import { ChannelVisibility } from './visibility.js';

export { CLOSE_BAD_REQUEST, CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, PING_INTERVAL_MS } from '../../../../realtime/socket.js';

/** A frame of the agents' stream: an event's name and payload as recorded, and where it sits (cursor, chat, seq). */
export type StreamFrame = {
  [K in EventType]: { type: K; data: EventPayloads[K]; cursor?: number; chat_id?: number; seq?: number };
}[EventType];

/** Agent streams' failures while the database is unavailable, in the outage log. */
const OPEN_FAILED: UnavailableSource = { name: 'stream', first: 'stream failed to open', unit: ['stream', 'streams'], verb: 'failed to open' };
const FEED_FAILED: UnavailableSource = { name: 'stream', first: 'stream feed failed', unit: ['feed', 'feeds'], verb: 'failed' };
const TOKEN_CHECK_FAILED: UnavailableSource = { name: 'stream', first: 'stream token check failed', unit: ['token check', 'token checks'], verb: 'failed' };

/** Each event's frame, serialized once for every agent socket of this process that sends it. */
const serializedFrames = new WeakMap<StreamEvent, Buffer>();

function serializedFrame(e: StreamEvent): Buffer {
  let frame = serializedFrames.get(e);
  if (!frame) {
    frame = Buffer.from(JSON.stringify(toFrame(e)));
    serializedFrames.set(e, frame);
  }
  return frame;
}

/** Agents see every event as it was recorded: its payload is already the agent shape. */
export function toFrame(e: StreamEvent): StreamFrame {
  switch (e.type) {
    case 'chat.created':
    case 'chat.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'message.created':
    case 'message.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'typing':
      return positioned({ type: e.type, data: e.data }, e);
    case 'offline_message.created':
      return positioned({ type: e.type, data: e.data }, e);
    case 'call.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'agent.updated':
      return positioned({ type: e.type, data: e.data }, e);
    default:
      return assertNever(e);
  }
}

function positioned(frame: StreamFrame, e: StreamEvent): StreamFrame {
  frame.cursor = e.id;
  if (e.chat_id !== null) frame.chat_id = e.chat_id;
  if (e.seq !== null) frame.seq = e.seq;
  return frame;
}

export async function streamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const schema = {
    tags: ['stream'],
    summary: "The agents' WebSocket: live events, resumable with ?cursor=",
    description:
      'Frames {type, data, cursor?, chat_id?, seq?}: the events missed since ?cursor= (an event id), then {"type":"ready","data":{"cursor":n}}, then live events. ' +
      'A cursor older than the retained events gets {"type":"reset","data":{"reason":"cursor_expired"}} before ready and no replay: reload the lists. ' +
      'Close codes: 4401 sign in again, 4403 forbidden, 4400 bad cursor, 4429 too many open sockets for this token or address (reconnect later), 1013 too slow (reconnect with your cursor).',
  };
  app.get('/stream', { websocket: true, schema }, (socket, request) => {
    openStream(ctx, socket, request).catch((err: unknown) => {
      request.server.unavailableLog.report(err, OPEN_FAILED, { log: request.log, msg: 'stream failed to open' });
      closeWith(socket, CLOSE_INTERNAL, 'internal error; reconnect with your cursor');
    });
  });
}

async function openStream(ctx: AppContext, socket: WebSocket, request: FastifyRequest): Promise<void> {
  if (!ctx.sockets.admit(socket, 'address', request.ip)) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const credentials = streamCredentials(request, query);
  if (!credentials) return closeWith(socket, CLOSE_UNAUTHORIZED, 'unauthorized: pass ?token=<token> from POST /api/v1/auth/login');
  if (credentials.viaCookie && !sameOrigin(request, ctx.config.publicUrl)) {
    return closeWith(socket, CLOSE_FORBIDDEN, 'forbidden: cookie sign-in from another origin');
  }
  const cursor = parseCursor(query.cursor);
  if (cursor === undefined) return closeWith(socket, CLOSE_BAD_REQUEST, 'bad request: cursor must be a non-negative integer event id');
  const agent = await resolveToken(ctx.db, credentials.token, ctx.clock());
  if (!agent) return closeWith(socket, CLOSE_UNAUTHORIZED, 'unauthorized: the token is unknown, expired or revoked; sign in again');
  if (socket.readyState !== socket.OPEN) return;
  if (!ctx.sockets.admit(socket, 'agent_token', credentials.token)) return;
  new AgentStream(ctx, socket, agent, credentials.token, cursor, request).open();
}

class AgentStream {
  private readonly feed: EventFeed;
  private readonly visibility: ChannelVisibility;
  private readonly ref: { accountId: number; agentId: number };
  private stopKeepAlive: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly socket: WebSocket,
    private readonly agent: Agent,
    private readonly token: string,
    cursor: number | null,
    private readonly request: FastifyRequest,
  ) {
    this.ref = { accountId: agent.account_id, agentId: agent.id };
    this.visibility = new ChannelVisibility(ctx.db, agent);
    this.feed = new EventFeed({
      ctx,
      accountId: agent.account_id,
      cursor,
      visible: (e) => this.visible(e),
      send: (e) => sendSerialized(socket, serializedFrame(e)),
      reset: () => sendJson(socket, RESET_FRAME),
      ready: (at) => sendJson(socket, { type: 'ready', data: { cursor: at } }),
      fail: (reason, err) => {
        if (err) request.server.unavailableLog.report(err, FEED_FAILED, { log: request.log, msg: 'stream feed failed' });
        closeWith(socket, err ? CLOSE_INTERNAL : CLOSE_TRY_AGAIN, reason);
      },
    });
  }

  open(): void {
    this.ctx.metrics.sockets.labels('agent').inc();
    this.ctx.presence.opened(this.ref);
    this.socket.on('close', () => this.closed());
    this.stopKeepAlive = keepAlive(this.socket, () => void this.tick());
    void this.feed.start();
  }

  private async visible(e: StreamEvent): Promise<boolean> {
    switch (e.type) {
      case 'agent.updated':
        return this.agentUpdated(e.data.agent) && this.visibility.allows(e);
      case 'chat.created':
      case 'chat.updated':
      case 'message.created':
      case 'message.updated':
      case 'typing':
      case 'offline_message.created':
      case 'call.updated':
        return this.visibility.allows(e);
      default:
        return assertNever(e);
    }
  }

  /** An agent changed: the visibility rule may have too; false when it is this agent, deactivated (the stream closes). */
  private agentUpdated(changed: AgentDto): boolean {
    this.visibility.invalidate();
    if (changed.id !== this.agent.id) return true;
    if (!changed.active) {
      closeWith(this.socket, CLOSE_UNAUTHORIZED, 'unauthorized: this agent was deactivated');
      return false;
    }
    // A change of this agent may have revoked its tokens (a new password, a logout): recheck now, not at the next ping.
    void this.tick();
    return true;
  }

  /** At every ping (keepAlive): catch up from the store and recheck the token. */
  private async tick(): Promise<void> {
    this.feed.catchUp();
    try {
      if (!(await resolveToken(this.ctx.db, this.token, this.ctx.clock()))) {
        closeWith(this.socket, CLOSE_UNAUTHORIZED, 'unauthorized: the token expired or was revoked; sign in again');
      }
    } catch (err) {
      this.request.server.unavailableLog.report(err, TOKEN_CHECK_FAILED, { log: this.request.log, msg: 'stream token check failed', level: 'warn' });
    }
  }

  private closed(): void {
    this.stopKeepAlive?.();
    this.feed.close();
    this.ctx.metrics.sockets.labels('agent').dec();
    this.ctx.presence.closed(this.ref);
  }
}

function streamCredentials(request: FastifyRequest, query: Record<string, unknown>): { token: string; viaCookie: boolean } | null {
  if (typeof query.token === 'string' && query.token !== '') return { token: query.token, viaCookie: false };
  const header = bearerToken(request);
  if (header) return { token: header, viaCookie: false };
  const cookie = request.cookies?.[TOKEN_COOKIE];
  return cookie ? { token: cookie, viaCookie: true } : null;
}

function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // not a browser: no cross-site risk
  if (origin === new URL(publicUrl).origin) return true;
  return origin === `${request.protocol}://${request.headers.host ?? ''}`;
}
