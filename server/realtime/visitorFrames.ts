/**
 * Which of an account's events one visitor's socket shows, and how: frames of
 * protocol/widget.ts for this visitor's chats only — its messages (never
 * private notes), the chat's state as the visitor sees it (status, the
 * accepting agent's name and photo, rate; sent only when that changed),
 * agents' typing, its calls — and `status` when the channel's availability
 * changes (recomputed at each agent.updated and each working_hours.changed of
 * the account, once for all the channel's sockets: availabilityOnce.ts). Everything else,
 * other visitors' chats and offline messages included, is dropped. The
 * frames' shapes are presenters/widget.ts's.
 */
import type { Db } from '../db/database.js';
import type { Channel, Visitor } from '../db/schema.js';
import { widgetAgents } from '../domain/widget/widgetState.js';
import { assertNever, type RelayedEvent } from '../events/catalogue.js';
import {
  presentWidgetChatHead,
  visitorCallFrame,
  visitorChatFrame,
  visitorMessageFrame,
  visitorStatusFrame,
  visitorTypingFrame,
} from '../presenters/widget.js';
import type { AvailabilityOnce } from './availabilityOnce.js';
import type { StreamEvent } from './hub.js';
import type { VisitorFrame, WidgetAgent } from '../../protocol/widget.js';

export class VisitorFrames {
  /** Whether the channel is available, as last told to the visitor. */
  online = false;
  private readonly mine = new Set<number>();
  private readonly notMine = new Set<number>();
  private readonly agents = new Map<number, WidgetAgent | null>();
  private readonly lastChat = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly channel: Channel,
    private readonly visitor: Visitor,
    private readonly availability: AvailabilityOnce,
  ) {}

  /** Before the feed starts: the visitor's chats so far, and availability now. */
  async init(): Promise<void> {
    const rows = await this.db.selectFrom('chats').select('id').where('visitor_id', '=', this.visitor.id).execute();
    for (const r of rows) this.mine.add(r.id);
    this.online = await this.availability.now(this.channel.account_id, this.channel.id);
  }

  async frameFor(e: StreamEvent): Promise<VisitorFrame | null> {
    if (e.account_id !== this.channel.account_id) return null;
    switch (e.type) {
      case 'agent.updated':
        return this.agentUpdated(e);
      case 'chat.created':
      case 'chat.updated':
        return (await this.isMine(e, e.data.chat.visitor.id)) ? this.chatFrame(e) : null;
      case 'message.created':
      case 'message.updated':
        return (await this.isMine(e)) ? this.messageFrame(e) : null;
      case 'typing':
        return (await this.isMine(e)) ? this.typingFrame(e) : null;
      case 'call.updated':
        return this.callFrame(e);
      case 'working_hours.changed':
        // A department's own hours do not decide the channel's availability: the account's do.
        return e.data.department_id === null ? this.availabilityChanged(e) : null;
      case 'offline_message.created':
      case 'offline_message.updated':
      case 'chat.offered':
      case 'chat.read':
      case 'channel.changed':
      case 'visitor.erased':
        return null;
      default:
        return assertNever(e);
    }
  }

  /** Whether the event's chat is this visitor's; `owner` is the chat's visitor when the event carries it. */
  private async isMine(e: StreamEvent, owner?: number): Promise<boolean> {
    const chatId = e.chat_id;
    if (chatId === null || e.channel_id !== this.channel.id) return false;
    if (this.mine.has(chatId)) return true;
    if (this.notMine.has(chatId)) return false;
    const row =
      owner === undefined ? await this.db.selectFrom('chats').select('visitor_id').where('id', '=', chatId).executeTakeFirst() : { visitor_id: owner };
    const yes = row?.visitor_id === this.visitor.id;
    (yes ? this.mine : this.notMine).add(chatId);
    return yes;
  }

  private async agent(id: number): Promise<WidgetAgent | undefined> {
    if (!this.agents.has(id)) this.agents.set(id, (await widgetAgents(this.db, this.channel.account_id, [id])).get(id) ?? null);
    return this.agents.get(id) ?? undefined;
  }

  private async agentUpdated(e: RelayedEvent<'agent.updated'>): Promise<VisitorFrame | null> {
    this.agents.delete(e.data.agent.id);
    return this.availabilityChanged(e);
  }

  private async availabilityChanged(e: RelayedEvent<'agent.updated' | 'working_hours.changed'>): Promise<VisitorFrame | null> {
    // Shared by every visitor socket of the channel in this process: one query per change, not one per socket.
    const online = await this.availability.after(e.id, this.channel.account_id, this.channel.id);
    if (online === this.online) return null;
    this.online = online;
    return visitorStatusFrame(e.id, online);
  }

  private async chatFrame(e: RelayedEvent<'chat.created' | 'chat.updated'>): Promise<VisitorFrame | null> {
    const c = e.data.chat;
    if (e.chat_id === null) return null;
    const agent = c.accepted_by === null ? null : ((await this.agent(c.accepted_by)) ?? null);
    const chat = presentWidgetChatHead({ id: e.chat_id, status: c.status, rate: c.rate }, agent);
    const json = JSON.stringify(chat);
    if (this.lastChat.get(chat.id) === json) return null; // nothing the visitor sees changed
    this.lastChat.set(chat.id, json);
    return visitorChatFrame(e.id, chat);
  }

  private async messageFrame(e: RelayedEvent<'message.created' | 'message.updated'>): Promise<VisitorFrame | null> {
    const dto = e.data.message;
    const agent = dto.agent_id === undefined ? undefined : await this.agent(dto.agent_id);
    return visitorMessageFrame(e.type, e.id, dto, agent);
  }

  private async typingFrame(e: RelayedEvent<'typing'>): Promise<VisitorFrame | null> {
    const { author, agent_id: agentId, typing } = e.data;
    if (author !== 'agent' || e.chat_id === null) return null; // the visitor's own typing is not echoed
    const agent = agentId === undefined ? undefined : await this.agent(agentId);
    return visitorTypingFrame(e.id, e.chat_id, typing, agent);
  }

  private async callFrame(e: RelayedEvent<'call.updated'>): Promise<VisitorFrame | null> {
    const call = e.data.call;
    if (call.visitor_id !== this.visitor.id && !(await this.isMine(e))) return null;
    return visitorCallFrame(e.id, call);
  }
}
