/**
 * The visitor sockets this process holds, by widget channel, so a widget an
 * admin deletes or disables is taken off open pages at once: its sockets are
 * closed with CLOSE_WIDGET_GONE (4404) and the chat frame tells the loader,
 * which removes the widget and calls svc_onWidgetDestroy. Sockets held by
 * other instances find out at their next keep-alive tick (they look the
 * channel up again, routes/widget/socket.ts).
 */
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import { closeWith } from './socket.js';

export const CLOSE_WIDGET_GONE = 4404;
/** The visitor was erased (domain/erasure/): its token names nobody any longer. */
export const CLOSE_VISITOR_ERASED = 4410;
export const VISITOR_ERASED_REASON = 'the visitor was erased';
export const WIDGET_GONE_REASON = 'the widget was deleted or disabled';

const byContext = new WeakMap<AppContext, Map<number, Set<WebSocket>>>();
const byVisitor = new WeakMap<AppContext, Map<number, Set<WebSocket>>>();

function mapOf(maps: WeakMap<AppContext, Map<number, Set<WebSocket>>>, ctx: AppContext): Map<number, Set<WebSocket>> {
  let map = maps.get(ctx);
  if (!map) maps.set(ctx, (map = new Map<number, Set<WebSocket>>()));
  return map;
}

const channels = (ctx: AppContext) => mapOf(byContext, ctx);

function hold(map: Map<number, Set<WebSocket>>, key: number, socket: WebSocket): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(socket);
  socket.once('close', () => {
    set.delete(socket);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  });
}

/** Keeps `socket` under its channel and its visitor until it closes. */
export function holdWidgetSocket(ctx: AppContext, channelId: number, socket: WebSocket, visitorId?: number): void {
  hold(channels(ctx), channelId, socket);
  if (visitorId !== undefined) hold(mapOf(byVisitor, ctx), visitorId, socket);
}

/** Closes the visitor's sockets in this process (it was erased); other instances find out at their next keep-alive tick. */
export function closeVisitorSockets(ctx: AppContext, visitorId: number): void {
  for (const socket of mapOf(byVisitor, ctx).get(visitorId) ?? []) closeWith(socket, CLOSE_VISITOR_ERASED, VISITOR_ERASED_REASON);
}

/** Closes every visitor socket of the channel in this process (after the channel was deleted or disabled). */
export function closeWidgetSockets(ctx: AppContext, channelId: number): void {
  for (const socket of channels(ctx).get(channelId) ?? []) closeWith(socket, CLOSE_WIDGET_GONE, WIDGET_GONE_REASON);
}
