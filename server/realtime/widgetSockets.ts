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
export const WIDGET_GONE_REASON = 'the widget was deleted or disabled';

const byContext = new WeakMap<AppContext, Map<number, Set<WebSocket>>>();

function channels(ctx: AppContext): Map<number, Set<WebSocket>> {
  let map = byContext.get(ctx);
  if (!map) byContext.set(ctx, (map = new Map<number, Set<WebSocket>>()));
  return map;
}

/** Keeps `socket` under its channel until it closes. */
export function holdWidgetSocket(ctx: AppContext, channelId: number, socket: WebSocket): void {
  const map = channels(ctx);
  let set = map.get(channelId);
  if (!set) map.set(channelId, (set = new Set()));
  set.add(socket);
  socket.once('close', () => {
    set.delete(socket);
    if (set.size === 0 && map.get(channelId) === set) map.delete(channelId);
  });
}

/** Closes every visitor socket of the channel in this process (after the channel was deleted or disabled). */
export function closeWidgetSockets(ctx: AppContext, channelId: number): void {
  for (const socket of channels(ctx).get(channelId) ?? []) closeWith(socket, CLOSE_WIDGET_GONE, WIDGET_GONE_REASON);
}
