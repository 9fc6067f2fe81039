/**
 * What Parley sends to a chat channel's customer endpoint (spec A "Outbound
 * agent message", docs/CHAT-CHANNEL.md): agent messages and typing. recipient.id is the
 * visitor's sender.id with its original JSON type; message.id is the message's
 * id as a string; the sender is the agent's name and photo (when set).
 * The deliveries themselves are written by domain/chatChannel/outbound.ts.
 */
import type { Agent, Message, Visitor } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { copyMessageContent, type MessageContent } from './messageFields.js';

export interface ChatChannelSender {
  name: string;
  photo?: string;
}

export interface ChatChannelMessage extends MessageContent {
  type: string;
  id: string;
  /** Extra fields of the message type (emoji, duration, …). */
  [extra: string]: unknown;
}

export interface ChatChannelMessageBody {
  sender: ChatChannelSender;
  recipient: { id: string | number };
  message: ChatChannelMessage;
}

export interface ChatChannelTypingBody {
  sender: ChatChannelSender;
  recipient: { id: string | number };
  message: { type: 'typein' | 'typeout' };
}

export function recipientId(visitor: Visitor): string | number {
  return visitor.external_id_is_number ? Number(visitor.external_id) : visitor.external_id;
}

function senderOf(agent: Agent): ChatChannelSender {
  return agent.photo_url ? { name: agent.name, photo: agent.photo_url } : { name: agent.name };
}

export function chatChannelMessageBody(agent: Agent, visitor: Visitor, m: Message): ChatChannelMessageBody {
  const message = copyMessageContent<ChatChannelMessage>({ type: m.type, id: String(m.id) }, m);
  Object.assign(message, parseJson<Record<string, unknown>>(m.extra_json, {}));
  return { sender: senderOf(agent), recipient: { id: recipientId(visitor) }, message };
}

export function chatChannelTypingBody(agent: Agent, visitor: Visitor, typing: boolean): ChatChannelTypingBody {
  return { sender: senderOf(agent), recipient: { id: recipientId(visitor) }, message: { type: typing ? 'typein' : 'typeout' } };
}
