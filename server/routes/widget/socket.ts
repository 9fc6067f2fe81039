/**
 * GET /widget/ws/<widget_id>?token=<visitor_token>&cursor=<last cursor>: the
 * chat frame's socket. Frames are VisitorFrame (protocol/widget.ts), chosen
 * by realtime/visitorFrames.ts (the session: realtime/visitorSocket.ts); the replay after `cursor`, the seam to live events and
 * catching up are the agent stream's EventFeed (realtime/feed.ts), so nothing
 * is lost or doubled across reconnects. After the replay, {"type":"ready",
 * "data":{cursor, online}}; a cursor older than the retained events, or more
 * than MAX_REPLAY (1,000) events behind, gets a `reset` frame first (the frame
 * reads its session again). An unknown widget
 * is 404 and a refused Origin 403 before the upgrade; a bad token upgrades and
 * closes with 4401. A widget deleted or disabled while the socket is open
 * closes it with 4404 (realtime/widgetSockets.ts: at once on this instance,
 * at the next keep-alive tick on others). One address, and one visitor, hold
 * at most WS_MAX_PER_ADDRESS / WS_MAX_PER_VISITOR sockets here; beyond, 4429
 * (realtime/socketBounds.ts).
 *
 * While the database is unavailable, frames reconnect in a loop: most get
 * the 503 of the widget lookup before the upgrade (logged as a request); the
 * sockets that fail to open after it, and the feeds that fail, go through the
 * app's outage log (errors/unavailableLog.ts) too, one warn line and then a
 * summary at most every 10 s per kind. Other failures are logged at error
 * with their stack.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.js';
import { findVisitorByToken, findWidgetChannel } from '../../domain/widget/visitorAccess.js';
import type { UnavailableSource } from '../../errors/unavailableLog.js';
import { AvailabilityOnce } from '../../realtime/availabilityOnce.js';
import { CLOSE_BAD_REQUEST, CLOSE_INTERNAL, CLOSE_UNAUTHORIZED, closeWith, parseCursor } from '../../realtime/socket.js';
import { VisitorFrames } from '../../realtime/visitorFrames.js';
import { VisitorSocket } from '../../realtime/visitorSocket.js';
import { widgetOf, type WidgetParams } from './visitorCall.js';

/** Visitor sockets' failures while the database is unavailable, in the outage log. */
const OPEN_FAILED: UnavailableSource = {
  name: 'visitor socket',
  first: 'visitor socket failed to open',
  unit: ['visitor socket', 'visitor sockets'],
  verb: 'failed to open',
};

export async function widgetSocketRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // One per app: the visitor sockets of a channel share each availability answer.
  const availability = new AvailabilityOnce(ctx.db, ctx.clock, () => ctx.metrics.availabilityChecks.inc());
  app.get<{ Params: WidgetParams }>(
    '/ws/:widgetId',
    {
      websocket: true,
      schema: { tags: ['widget'], summary: "The visitor's socket (VisitorFrame stream)" },
      preValidation: async (request) => {
        await widgetOf(ctx, request);
      },
    },
    (socket, request) => {
      openVisitorSocket(ctx, socket, request, availability).catch((err: unknown) => {
        request.server.unavailableLog.report(err, OPEN_FAILED, { log: request.log, msg: 'visitor socket failed to open' });
        closeWith(socket, CLOSE_INTERNAL, 'internal error; reconnect with your cursor');
      });
    },
  );
}

async function openVisitorSocket(
  ctx: AppContext,
  socket: WebSocket,
  request: FastifyRequest<{ Params: WidgetParams }>,
  availability: AvailabilityOnce,
): Promise<void> {
  if (!ctx.sockets.admit(socket, 'address', request.ip)) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const cursor = parseCursor(query.cursor);
  if (cursor === undefined) return closeWith(socket, CLOSE_BAD_REQUEST, 'bad request: cursor must be a non-negative integer');
  const channel = await findWidgetChannel(ctx.db, request.params.widgetId);
  const visitor = await findVisitorByToken(ctx.db, channel, typeof query.token === 'string' ? query.token : null);
  if (!visitor) return closeWith(socket, CLOSE_UNAUTHORIZED, 'unauthorized: unknown visitor token; start a widget session again');
  const frames = new VisitorFrames(ctx.db, channel, visitor, availability);
  await frames.init();
  if (socket.readyState !== socket.OPEN) return;
  if (!ctx.sockets.admit(socket, 'visitor', String(visitor.id))) return;
  new VisitorSocket(ctx, socket, channel, visitor, frames, cursor, request).open();
}
