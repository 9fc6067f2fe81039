/**
 * GET /api/v1/stream?token=<token>&cursor=<last event id>: the agent app's
 * WebSocket. Frames: {"type","data","cursor"(event id),"chat_id"?,"seq"?}, in id
 * order, for the chats of the agent's channels (pending ones included) and the
 * account's channel-less events; after the replay of what the client missed
 * since its cursor, {"type":"ready","data":{"cursor":n}} says it is live (see
 * realtime/feed.ts for why a cursor never skips an event).
 *
 * Auth: ?token=, the Authorization header, or the web app's cookie (then the
 * Origin must be ours). A bad token upgrades and closes with 4401 and a reason,
 * so browser clients can tell "sign in again" from a network error. The server
 * pings every 25 s and terminates sockets that did not answer the last ping;
 * the same tick rechecks the token and catches up from the store.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../../../context.js';
import type { Agent } from '../../../../db/schema.js';
import { resolveToken } from '../../../../domain/auth/tokens.js';
import { EventFeed } from '../../../../realtime/feed.js';
import type { StreamEvent } from '../../../../realtime/hub.js';
import { bearerToken, TOKEN_COOKIE } from '../../../authenticate.js';
import { ChannelVisibility } from './visibility.js';

export const PING_INTERVAL_MS = 25_000;
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_BAD_REQUEST = 4400;
const CLOSE_TRY_AGAIN = 1013;
const CLOSE_INTERNAL = 1011;
/** Bytes waiting in the socket's buffer before the client is considered too slow. */
const MAX_BUFFERED = 4 * 1024 * 1024;

export interface StreamFrame {
  type: string;
  data: Record<string, unknown>;
  cursor?: number;
  chat_id?: number;
  seq?: number;
}

export function toFrame(e: StreamEvent): StreamFrame {
  const frame: StreamFrame = { type: e.type, data: e.data, cursor: e.id };
  if (e.chat_id !== null) frame.chat_id = e.chat_id;
  if (e.seq !== null) frame.seq = e.seq;
  return frame;
}

export async function streamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/stream', { websocket: true, schema: { tags: ['stream'] } }, (socket, request) => {
    openStream(ctx, socket, request).catch((err: unknown) => {
      request.log.error({ err }, 'stream failed to open');
      closeWith(socket, CLOSE_INTERNAL, 'internal error; reconnect with your cursor');
    });
  });
}

async function openStream(ctx: AppContext, socket: WebSocket, request: FastifyRequest): Promise<void> {
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
  new AgentStream(ctx, socket, agent, credentials.token, cursor, request).open();
}

class AgentStream {
  private readonly feed: EventFeed;
  private readonly visibility: ChannelVisibility;
  private readonly ref: { accountId: number; agentId: number };
  private alive = true;
  private ticker: NodeJS.Timeout | null = null;

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
      send: (e) => this.send(toFrame(e)),
      ready: (at) => this.send({ type: 'ready', data: { cursor: at } }),
      fail: (reason, err) => {
        if (err) request.log.error({ err }, 'stream feed failed');
        closeWith(socket, err ? CLOSE_INTERNAL : CLOSE_TRY_AGAIN, reason);
      },
    });
  }

  open(): void {
    this.ctx.metrics.sockets.labels('agent').inc();
    this.ctx.presence.opened(this.ref);
    this.socket.on('close', () => this.closed());
    this.socket.on('pong', () => (this.alive = true));
    this.socket.on('message', (raw) => this.onMessage(raw.toString()));
    this.ticker = setInterval(() => void this.tick(), PING_INTERVAL_MS);
    void this.feed.start();
  }

  private async visible(e: StreamEvent): Promise<boolean> {
    if (e.type === 'agent.updated') {
      this.visibility.invalidate();
      const changed = e.data.agent as { id?: unknown; active?: unknown } | undefined;
      if (changed?.id === this.agent.id && changed.active === false) {
        closeWith(this.socket, CLOSE_UNAUTHORIZED, 'unauthorized: this agent was deactivated');
        return false;
      }
    }
    return this.visibility.allows(e);
  }

  private send(frame: StreamFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED) {
      closeWith(this.socket, CLOSE_TRY_AGAIN, 'too slow; reconnect with your cursor');
      return;
    }
    this.socket.send(JSON.stringify(frame));
  }

  /** Browsers cannot send protocol pings: {"type":"ping"} is answered with {"type":"pong"}. */
  private onMessage(text: string): void {
    if (text.length < 100 && /"type"\s*:\s*"ping"/.test(text)) this.send({ type: 'pong', data: {} });
  }

  private async tick(): Promise<void> {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
    this.feed.catchUp();
    try {
      if (!(await resolveToken(this.ctx.db, this.token, this.ctx.clock()))) {
        closeWith(this.socket, CLOSE_UNAUTHORIZED, 'unauthorized: the token expired or was revoked; sign in again');
      }
    } catch (err) {
      this.request.log.warn({ err }, 'stream token check failed');
    }
  }

  private closed(): void {
    if (this.ticker) clearInterval(this.ticker);
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

/** undefined: invalid; null: none given. */
function parseCursor(value: unknown): number | null | undefined {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // not a browser: no cross-site risk
  if (origin === new URL(publicUrl).origin) return true;
  return origin === `${request.protocol}://${request.headers.host ?? ''}`;
}

function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason.slice(0, 120));
}
