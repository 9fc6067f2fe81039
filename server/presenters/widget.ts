/**
 * What the visitor's chat frame sees (protocol/widget.ts): its own chats and
 * messages, the accepting agent's name and photo, the contact info it gave
 * itself (domain/widget/ownContact.ts). Never an agent's e-mail, a private
 * note, a suppressed message, another visitor's data, or anything of the
 * agents' view (agent ids list, CRM link, custom data, session, and the
 * contact info of a chat_accepted answer: docs/SECURITY.md §10).
 *
 * The socket's frames are shaped here too (visitor*Frame); which events a
 * visitor gets, and the agents and chats they name, is the session's business
 * (realtime/visitorFrames.ts).
 */
import type { Agent, Chat, Message } from '../db/schema.js';
import type { OwnContact } from '../model/ownContact.js';
import type { CallDto } from './call.js';
import type { ContactInfo, VisitorFrame, WidgetAgent, WidgetChat, WidgetMessage } from '../../protocol/widget.js';
import { presentMessage, type MessageDto } from './message.js';
import { copyMessageContent } from './messageFields.js';

export type AgentLookup = (id: number) => WidgetAgent | undefined;

export function presentWidgetAgent(a: Pick<Agent, 'id' | 'name' | 'photo_url'>): WidgetAgent {
  return { id: a.id, name: a.name, photo: a.photo_url };
}

/** The contact info the visitor gave itself (never the visitor columns, which a CRM's answer may have written). */
export function presentContactInfo(own: OwnContact): ContactInfo {
  return { client_name: own.name ?? null, email: own.email ?? null, phone: own.phone ?? null, description: own.description ?? null };
}

/** A message as agents see it (event data, API) → the visitor's view; null for a private note. */
export function widgetMessageFromDto(m: MessageDto, agents: AgentLookup): WidgetMessage | null {
  if (m.internal) return null;
  const out: WidgetMessage = { id: m.id, chat_id: m.chat_id, author: m.author, type: m.type, created_at: m.created_at };
  if (m.agent_id !== undefined) {
    const agent = agents(m.agent_id);
    if (agent) out.agent = agent;
  }
  copyMessageContent(out, m);
  if (m.file_removed) out.file_removed = true;
  return out;
}

/** A stored message → the visitor's view; null for private notes and suppressed messages. */
export function presentWidgetMessage(m: Message, agents: AgentLookup): WidgetMessage | null {
  if (m.suppressed === 1 || m.internal === 1) return null;
  return widgetMessageFromDto(presentMessage(m), agents);
}

export function presentWidgetChatHead(c: Pick<Chat, 'id' | 'status' | 'rate'>, agent: WidgetAgent | null): Omit<WidgetChat, 'messages'> {
  return { id: c.id, status: c.status, agent, rate: c.rate };
}

export function presentWidgetChat(c: Chat, agents: AgentLookup, messages: Message[]): WidgetChat {
  const agent = c.accepted_by === null ? null : (agents(c.accepted_by) ?? null);
  const shown = messages.map((m) => presentWidgetMessage(m, agents)).filter((m): m is WidgetMessage => m !== null);
  return { ...presentWidgetChatHead(c, agent), messages: shown };
}

type Frame<T extends VisitorFrame['type']> = Extract<VisitorFrame, { type: T }>;

export function visitorStatusFrame(cursor: number, online: boolean): Frame<'status'> {
  return { type: 'status', cursor, data: { online } };
}

export function visitorChatFrame(cursor: number, chat: Omit<WidgetChat, 'messages'>): Frame<'chat.updated'> {
  return { type: 'chat.updated', cursor, data: { chat } };
}

/** A message event's frame, with the agent who wrote it (as the session knows it); null for a private note. */
export function visitorMessageFrame(
  type: 'message.created' | 'message.updated',
  cursor: number,
  dto: MessageDto,
  agent: WidgetAgent | undefined,
): Frame<'message.created' | 'message.updated'> | null {
  const message = widgetMessageFromDto(dto, () => agent);
  return message ? { type, cursor, data: { message } } : null;
}

export function visitorTypingFrame(cursor: number, chatId: number, typing: boolean, agent: WidgetAgent | undefined): Frame<'typing'> {
  return { type: 'typing', cursor, data: { chat_id: chatId, typing, ...(agent ? { agent } : {}) } };
}

/** A call as the visitor sees it: its id, status and the reason of an error. */
export function visitorCallFrame(cursor: number, call: CallDto): Frame<'call.updated'> {
  return { type: 'call.updated', cursor, data: { call: { id: call.id, status: call.status, ...(call.reason === undefined ? {} : { reason: call.reason }) } } };
}
