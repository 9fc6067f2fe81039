/**
 * One visitor's socket session (GET /widget/ws/<widget_id>, opened by
 * routes/widget/socket.ts once the visitor token is checked): the event feed
 * of the account, each event turned into this visitor's frame or dropped by
 * VisitorFrames (visitorFrames.ts), in the feed's order; a ping every 25 s
 * that also catches up from the store and checks the widget still exists and
 * the visitor is not erased. A widget deleted or disabled closes the socket
 * with 4404 (widgetSockets.ts) as its channel.changed event arrives, on every
 * instance; an erased visitor's close at once on the instance that erased it
 * (AppContext.widgetSockets), at the next tick on the others.
 */
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { VisitorFrame } from '../../protocol/widget.js';
import type { AppContext } from '../context.js';
import type { Channel, Visitor } from '../db/schema.js';
import { findWidgetChannel } from '../domain/widget/visitorAccess.js';
import { AppError } from '../errors/AppError.js';
import type { UnavailableSource } from '../errors/unavailableLog.js';
import { EventFeed } from './feed.js';
import { CLOSE_INTERNAL, CLOSE_TRY_AGAIN, closeWith, keepAlive, resetFrame, sendJson } from './socket.js';
import type { VisitorFrames } from './visitorFrames.js';
import { CLOSE_VISITOR_ERASED, CLOSE_WIDGET_GONE, VISITOR_ERASED_REASON, WIDGET_GONE_REASON } from './widgetSockets.js';

const FEED_FAILED: UnavailableSource = { name: 'visitor socket', first: 'visitor socket feed failed', unit: ['feed', 'feeds'], verb: 'failed' };

export class VisitorSocket {
  private readonly feed: EventFeed;
  private stopKeepAlive: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly socket: WebSocket,
    private readonly channel: Channel,
    private readonly visitor: Visitor,
    private readonly frames: VisitorFrames,
    cursor: number | null,
    request: FastifyRequest,
  ) {
    this.feed = new EventFeed({
      ctx,
      accountId: channel.account_id,
      cursor,
      // Frames are made (agent names, availability: queries) and sent here, in the feed's order; the feed's own send is unused.
      visible: async (e) => {
        // The widget changed (deleted, disabled), on whichever instance: looked up again at once (4404 when gone).
        if (e.type === 'channel.changed' && e.data.channel_id === channel.id) await this.checkWidget();
        const frame = await this.frames.frameFor(e);
        if (frame) this.send(frame);
        return false;
      },
      send: () => undefined,
      reset: (reason) => this.send(resetFrame(reason)),
      ready: (at) => this.send({ type: 'ready', data: { cursor: at, online: this.frames.online } }),
      fail: (reason, err) => {
        if (err)
          request.server.unavailableLog.report(err, FEED_FAILED, { log: request.log, msg: 'visitor socket feed failed', fields: { visitor: visitor.id } });
        closeWith(socket, err ? CLOSE_INTERNAL : CLOSE_TRY_AGAIN, reason);
      },
    });
  }

  open(): void {
    this.ctx.metrics.sockets.labels('visitor').inc();
    this.socket.on('close', () => this.closed());
    this.ctx.widgetSockets.hold(this.visitor.id, this.socket);
    this.stopKeepAlive = keepAlive(this.socket, () => {
      this.feed.catchUp();
      void this.checkWidget();
    });
    void this.feed.start();
  }

  /** The widget deleted or disabled: the page is told (4404); the visitor erased on another instance: 4410. */
  private async checkWidget(): Promise<void> {
    try {
      await findWidgetChannel(this.ctx.db, this.channel.public_id);
      // Erased on another instance: the visitor's widget token is gone (domain/erasure/).
      const visitor = await this.ctx.db.selectFrom('visitors').select('token_hash').where('id', '=', this.visitor.id).executeTakeFirst();
      if (!visitor?.token_hash) closeWith(this.socket, CLOSE_VISITOR_ERASED, VISITOR_ERASED_REASON);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) closeWith(this.socket, CLOSE_WIDGET_GONE, WIDGET_GONE_REASON);
      // Other failures (the database away): the next tick looks again.
    }
  }

  private send(frame: VisitorFrame): void {
    sendJson(this.socket, frame);
  }

  private closed(): void {
    this.stopKeepAlive?.();
    this.feed.close();
    this.ctx.metrics.sockets.labels('visitor').dec();
  }
}
