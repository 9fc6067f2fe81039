/**
 * Event webhook bodies (spec C "Events", CONTRACT §4), one builder per
 * event_name. Every body has event_name, widget_id, user_token (null when
 * unset), visitor and session (always objects), page and department when
 * known; chat events add chat_id and agent.
 */
import type { Agent, Call, Channel, Chat, Message, Visitor } from '../../db/schema.js';
import {
  webhookAgent,
  webhookPage,
  webhookSession,
  webhookVisitor,
  type WebhookAgent,
  type WebhookPage,
  type WebhookSession,
  type WebhookVisitor,
} from './objects.js';

/** Every event_name an event webhook carries (docs/EVENTS.md has a section for each; a test keeps them equal). */
export const WEBHOOK_EVENT_NAMES = ['chat_accepted', 'chat_assigned', 'chat_updated', 'chat_finished', 'offline_message', 'call_event'] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export interface ChatScope {
  chat: Chat;
  visitor: Visitor;
  channel: Channel;
  department: { id: number; name: string } | null;
}

/** What every event webhook body carries. */
export interface WebhookBodyBase<N extends WebhookEventName = WebhookEventName> {
  event_name: N;
  widget_id: string;
  user_token: string | null;
  visitor: WebhookVisitor;
  session: WebhookSession;
  page?: WebhookPage;
  department?: { id: number; name: string };
}

/** What a chat's events carry besides. */
export interface WebhookChatBase<N extends WebhookEventName> extends WebhookBodyBase<N> {
  chat_id: number;
}

export interface ChatAcceptedBody extends WebhookChatBase<'chat_accepted'> {
  agent: WebhookAgent;
}

export interface ChatAssignedBody extends WebhookChatBase<'chat_assigned'> {
  agent: WebhookAgent;
  assign_to: string;
}

export interface ChatUpdatedBody extends WebhookChatBase<'chat_updated'> {
  agent: WebhookAgent | null;
}

/** One message of chat_finished's transcript; timestamp in Unix seconds, type the author. */
export interface WebhookTranscriptItem {
  timestamp: number;
  type: 'visitor' | 'agent' | 'system';
  message: string;
  agent_id?: number;
  blacklisted?: true;
}

export interface ChatFinishedBody extends WebhookChatBase<'chat_finished'> {
  agents: WebhookAgent[];
  chat: { messages: WebhookTranscriptItem[]; rate: Chat['rate']; blacklisted: boolean };
}

export interface OfflineMessageBody extends WebhookBodyBase<'offline_message'> {
  offline_message_id: string;
  message: string;
}

export interface WebhookCall {
  type: Call['type'];
  phone: Call['phone'];
  status: Call['status'];
  reason?: string;
  record_url?: string;
}

export interface CallEventBody extends WebhookBodyBase<'call_event'> {
  /** null for a call outside a chat. */
  chat_id: number | null;
  agent: WebhookAgent | null;
  call: WebhookCall;
}

/** Every event webhook body, told apart by event_name. */
export type WebhookBody = ChatAcceptedBody | ChatAssignedBody | ChatUpdatedBody | ChatFinishedBody | OfflineMessageBody | CallEventBody;

function base<N extends WebhookEventName>(
  eventName: N,
  channel: Channel,
  visitor: Visitor | null,
  pageJson: string | null,
  department: ChatScope['department'],
): WebhookBodyBase<N> {
  const body: WebhookBodyBase<N> = {
    event_name: eventName,
    widget_id: channel.public_id,
    user_token: visitor?.user_token ?? null,
    visitor: visitor ? webhookVisitor(visitor) : { number: '', description: '', chats_count: 0 },
    session: visitor ? webhookSession(visitor) : { geoip: {}, utm: '', utm_json: {}, ip_addr: '', user_agent: '' },
  };
  const page = visitor ? webhookPage(pageJson, visitor) : undefined;
  if (page) body.page = page;
  if (department) body.department = department;
  return body;
}

function chatBase<N extends WebhookEventName>(eventName: N, s: ChatScope): WebhookChatBase<N> {
  return { ...base(eventName, s.channel, s.visitor, s.chat.page_json, s.department), chat_id: s.chat.id };
}

const agentOrNull = (a: Agent | null): WebhookAgent | null => (a ? webhookAgent(a) : null);

export function chatAcceptedBody(s: ChatScope, agent: Agent): ChatAcceptedBody {
  return { ...chatBase('chat_accepted', s), agent: webhookAgent(agent) };
}

export function chatAssignedBody(s: ChatScope, agent: Agent, assignTo: string): ChatAssignedBody {
  return { ...chatBase('chat_assigned', s), agent: webhookAgent(agent), assign_to: assignTo };
}

export function chatUpdatedBody(s: ChatScope, agent: Agent | null): ChatUpdatedBody {
  return { ...chatBase('chat_updated', s), agent: agentOrNull(agent) };
}

/** message.timestamp is the time of receipt in Unix seconds. */
export function chatFinishedBody(s: ChatScope, agents: Agent[], messages: Message[]): ChatFinishedBody {
  return {
    ...chatBase('chat_finished', s),
    agents: agents.map(webhookAgent),
    chat: {
      messages: messages
        .filter((m) => m.author !== 'system' && m.internal === 0)
        .map((m) => {
          const item: WebhookTranscriptItem = { timestamp: Math.floor(m.created_at / 1000), type: m.author, message: m.text ?? m.file ?? '' };
          if (m.author === 'agent' && m.agent_id !== null) item.agent_id = m.agent_id;
          if (m.suppressed === 1) item.blacklisted = true;
          return item;
        }),
      rate: s.chat.rate,
      blacklisted: s.chat.blacklisted === 1,
    },
  };
}

export function offlineMessageBody(channel: Channel, visitor: Visitor | null, offline: { id: number; message: string }): OfflineMessageBody {
  return { ...base('offline_message', channel, visitor, null, null), offline_message_id: String(offline.id), message: offline.message };
}

export function callEventBody(channel: Channel, scope: ChatScope | null, visitor: Visitor | null, agent: Agent | null, call: Call): CallEventBody {
  const head: WebhookBodyBase<'call_event'> & { chat_id: number | null } = scope
    ? chatBase('call_event', scope)
    : { ...base('call_event', channel, visitor, null, null), chat_id: call.chat_id };
  const detail: WebhookCall = { type: call.type, phone: call.phone, status: call.status };
  if (call.status === 'error' && call.reason) detail.reason = call.reason;
  if (call.status === 'end' && call.record_url) detail.record_url = call.record_url;
  return { ...head, agent: agentOrNull(agent), call: detail };
}
