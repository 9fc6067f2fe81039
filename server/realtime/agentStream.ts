/**
 * One agent's stream session (the socket of GET /api/v1/stream, opened by
 * routes/api/v1/stream/stream.ts once the token is checked): the event feed
 * filtered by the agent's channel visibility (channelVisibility.ts, which
 * follows channel changes and the agent's own changes at once; a chat.read
 * only to the agent who read, on every device of it), each
 * frame serialized once per process for every socket that sends it, presence
 * while the socket is open, a ping every 25 s that also catches up from the
 * store and rechecks the token, and a close when the agent is deactivated or
 * its token revoked.
 */
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AgentDto } from '../../protocol/agent.js';
import type { AppContext } from '../context.js';
import type { Agent } from '../db/schema.js';
import { resolveToken } from '../domain/auth/tokens.js';
import type { UnavailableSource } from '../errors/unavailableLog.js';
import { assertNever } from '../events/catalogue.js';
import { toFrame } from '../presenters/agentFrames.js';
import type { ChannelVisibility } from './channelVisibility.js';
import { EventFeed } from './feed.js';
import type { StreamEvent } from './hub.js';
import { CLOSE_INTERNAL, CLOSE_TRY_AGAIN, CLOSE_UNAUTHORIZED, closeWith, keepAlive, resetFrame, sendJson, sendSerialized } from './socket.js';

/** Agent streams' failures while the database is unavailable, in the outage log. */
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

export class AgentStream {
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
    this.visibility = ctx.channelRules.for(agent);
    this.feed = new EventFeed({
      ctx,
      accountId: agent.account_id,
      cursor,
      visible: (e) => this.visible(e),
      send: (e) => sendSerialized(socket, serializedFrame(e)),
      reset: (reason) => sendJson(socket, resetFrame(reason)),
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
        return this.agentUpdated(e, e.data.agent) && this.visibility.allows(e);
      case 'chat.created':
      case 'chat.updated':
      case 'message.created':
      case 'message.updated':
      case 'typing':
      case 'offline_message.created':
      case 'offline_message.updated':
      case 'call.updated':
      case 'working_hours.changed':
      case 'chat.offered':
      case 'visitor.erased':
        return this.visibility.allows(e);
      case 'chat.read':
        // One agent's own unread state: its devices only, never a colleague's (nor an administrator's).
        return e.data.agent_id === this.agent.id && this.visibility.allows(e);
      case 'channel.changed':
        // The channel rule is read again before the next event: the chats shown follow the change at once.
        return this.visibility.channelChanged(e, e.data.channel_id);
      default:
        return assertNever(e);
    }
  }

  /**
   * An agent changed; false when it is this agent, deactivated (the stream
   * closes). Only this agent's own change (its role) can change what it sees:
   * a colleague's changes nothing of its channel rule (channel changes have
   * their own event, channel.changed).
   */
  private agentUpdated(e: StreamEvent, changed: AgentDto): boolean {
    if (changed.id !== this.agent.id) return true;
    this.visibility.invalidate(e.id);
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
    this.visibility.release();
    this.ctx.metrics.sockets.labels('agent').dec();
    this.ctx.presence.closed(this.ref);
  }
}
