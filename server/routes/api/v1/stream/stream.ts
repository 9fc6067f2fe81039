/**
 * GET /api/v1/stream?token=<token>&cursor=<last event id>: the agent app's
 * WebSocket. Frames: {"type","data","cursor"(event id),"chat_id"?,"seq"?}, in id
 * order, for the chats of the agent's channels (pending ones included) and the
 * account's channel-less events (chat.read: the agent's own only); after the replay of what the client missed
 * since its cursor, {"type":"ready","data":{"cursor":n}} says it is live (see
 * realtime/feed.ts for why a cursor never skips an event). A cursor older than
 * the events the server keeps (RETENTION_DAYS) gets
 * {"type":"reset","data":{"reason":"cursor_expired"}} before `ready` and no
 * replay: the client reloads what it shows, then goes on from `ready`'s cursor.
 * So does a cursor more than MAX_REPLAY (1,000) events behind, with reason
 * `too_far_behind` (realtime/feed.ts).
 *
 * Bounds (realtime/socketBounds.ts): one address, and one token, hold at most
 * WS_MAX_PER_ADDRESS / WS_MAX_PER_AGENT_TOKEN sockets here; beyond, 4429.
 *
 * Auth: ?token=, the Authorization header, or the web app's cookie (then the
 * Origin must be ours). A bad token upgrades and closes with 4401 and a reason,
 * so browser clients can tell "sign in again" from a network error; a session
 * that must still change its one-time password closes with 4403. The server
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
 *
 * This file authenticates and opens; the session itself is
 * realtime/agentStream.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../../../context.js';
import { resolveToken } from '../../../../domain/auth/tokens.js';
import type { UnavailableSource } from '../../../../errors/unavailableLog.js';
import { CLOSE_BAD_REQUEST, CLOSE_FORBIDDEN, CLOSE_INTERNAL, CLOSE_UNAUTHORIZED, closeWith, parseCursor } from '../../../../realtime/socket.js';
import { bearerToken, passwordChosen, TOKEN_COOKIE } from '../../../authenticate.js';
import { AgentStream } from '../../../../realtime/agentStream.js';

export { CLOSE_BAD_REQUEST, CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, PING_INTERVAL_MS } from '../../../../realtime/socket.js';

/** Agent streams that fail to open while the database is unavailable, in the outage log. */
const OPEN_FAILED: UnavailableSource = { name: 'stream', first: 'stream failed to open', unit: ['stream', 'streams'], verb: 'failed to open' };

export async function streamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const schema = {
    tags: ['stream'],
    summary: "The agents' WebSocket: live events, resumable with ?cursor=",
    description:
      'Frames {type, data, cursor?, chat_id?, seq?}: the events missed since ?cursor= (an event id), then {"type":"ready","data":{"cursor":n}}, then live events. ' +
      'A cursor older than the retained events gets {"type":"reset","data":{"reason":"cursor_expired"}} before ready and no replay: reload the lists. ' +
      'So does a cursor more than 1,000 events behind, with {"reason":"too_far_behind"}. ' +
      'chat.read {chat_id, agent_id, last_read_message_id, unread_count} goes only to the streams of the agent who read the chat (its other devices clear the unread count). ' +
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
  if (!passwordChosen(agent)) return closeWith(socket, CLOSE_FORBIDDEN, 'forbidden: choose your own password first (PUT /api/v1/me/password)');
  if (socket.readyState !== socket.OPEN) return;
  if (!ctx.sockets.admit(socket, 'agent_token', credentials.token)) return;
  new AgentStream(ctx, socket, agent, credentials.token, cursor, request).open();
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
