/**
 * What the visitor's chat frame sees (protocol/widget.ts): its own chats and
 * messages, the accepting agent's name and photo, its own contact info.
 * Never an agent's e-mail, a private note, a suppressed message, another
 * visitor's data, or anything of the agents' view (agent ids list, CRM link,
 * custom data, session).
 */
import type { Agent, Chat, Message, Visitor } from '../db/schema.js';
import type { ContactInfo, WidgetAgent, WidgetChat, WidgetMessage } from '../../protocol/widget.js';
import { presentMessage, type MessageDto } from './message.js';

export type AgentLookup = (id: number) => WidgetAgent | undefined;

export function presentWidgetAgent(a: Pick<Agent, 'id' | 'name' | 'photo_url'>): WidgetAgent {
  return { id: a.id, name: a.name, photo: a.photo_url };
}

export function presentContactInfo(v: Visitor): ContactInfo {
  return { client_name: v.name, email: v.email, phone: v.phone, description: v.description };
}

/** A message as agents see it (event data, API) → the visitor's view; null for a private note. */
export function widgetMessageFromDto(m: MessageDto, agents: AgentLookup): WidgetMessage | null {
  if (m.internal) return null;
  const out: WidgetMessage = { id: m.id, chat_id: m.chat_id, author: m.author, type: m.type, created_at: m.created_at };
  if (m.agent_id !== undefined) {
    const agent = agents(m.agent_id);
    if (agent) out.agent = agent;
  }
  if (m.text !== undefined) out.text = m.text;
  if (m.file !== undefined) out.file = m.file;
  if (m.file_name !== undefined) out.file_name = m.file_name;
  if (m.file_size !== undefined) out.file_size = m.file_size;
  if (m.thumb !== undefined) out.thumb = m.thumb;
  if (m.latitude !== undefined) out.latitude = m.latitude;
  if (m.longitude !== undefined) out.longitude = m.longitude;
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
