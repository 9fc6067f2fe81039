/**
 * The visitor sockets this process holds, by visitor, so an erased visitor's
 * are closed at once (CLOSE_VISITOR_ERASED, 4410): AppContext.widgetSockets,
 * the port the domain calls (domain/erasure/requestErasure.ts) without
 * importing realtime. Sockets held by other instances find out at their next
 * keep-alive tick (visitorSocket.ts looks the visitor up again). A widget
 * deleted or disabled (CLOSE_WIDGET_GONE, 4404) is not closed from here: each
 * socket, on every instance, follows its channel's channel.changed event.
 */
import type { WebSocket } from 'ws';
import { closeWith } from './socket.js';

export const CLOSE_WIDGET_GONE = 4404;
/** The visitor was erased (domain/erasure/): its token names nobody any longer. */
export const CLOSE_VISITOR_ERASED = 4410;
export const VISITOR_ERASED_REASON = 'the visitor was erased';
export const WIDGET_GONE_REASON = 'the widget was deleted or disabled';

/** What the domain may ask of the visitor sockets of this process. */
export interface VisitorSocketsPort {
  /** Closes the visitor's sockets in this process (it was erased). */
  closeVisitor(visitorId: number): void;
}

export class WidgetSockets implements VisitorSocketsPort {
  private readonly byVisitor = new Map<number, Set<WebSocket>>();

  /** Keeps `socket` under its visitor until it closes. */
  hold(visitorId: number, socket: WebSocket): void {
    let set = this.byVisitor.get(visitorId);
    if (!set) this.byVisitor.set(visitorId, (set = new Set()));
    set.add(socket);
    socket.once('close', () => {
      set.delete(socket);
      if (set.size === 0 && this.byVisitor.get(visitorId) === set) this.byVisitor.delete(visitorId);
    });
  }

  closeVisitor(visitorId: number): void {
    for (const socket of this.byVisitor.get(visitorId) ?? []) closeWith(socket, CLOSE_VISITOR_ERASED, VISITOR_ERASED_REASON);
  }
}
