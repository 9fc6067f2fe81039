/**
 * Event webhook bodies (spec C "Events", docs/EVENTS.md), one builder per
 * event_name (their shapes: types.ts). Every body has event_name, widget_id,
 * user_token (null when unset), visitor and session (always objects), page
 * and department when known; chat events add chat_id, and agent when an agent
 * is involved. A key without a value is left out, never null.
 */
import type { Agent, Call, Channel, Chat, Message, Visitor } from '../../db/schema.js';
import { webhookAgent, webhookPage, webhookSession, webhookVisitor } from './objects.js';
import type {
  CallEventBody,
  ChatAcceptedBody,
  ChatAssignedBody,
  ChatFinishedBody,
  ChatMissedBody,
  ChatRatedBody,
  ChatStartedBody,
  ChatUpdatedBody,
  OfflineMessageBody,
  VisitorErasedBody,
  WebhookBodyBase,
  WebhookCall,
  WebhookChatBase,
  WebhookEventName,
  WebhookTranscriptItem,
} from './types.js';

export * from './types.js';

export interface ChatScope {
  chat: Chat;
  visitor: Visitor;
  channel: Channel;
  department: { id: number; name: string } | null;
}

/** A transcript as text and as escaped HTML (built by server/mail/compose.ts). */
export interface RenderedTranscript {
  text: string;
  html: string;
}

/** What the visitor typed into a form (offline message): shown in `visitor` over the stored record. */
export interface FormContact {
  name: string | null;
  email: string | null;
  phone: string | null;
}

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

/** `{agent}` when there is one, `{}` otherwise: spread into a body. */
const agentKey = (a: Agent | null): { agent?: ReturnType<typeof webhookAgent> } => (a ? { agent: webhookAgent(a) } : {});

export function chatAcceptedBody(s: ChatScope, agent: Agent): ChatAcceptedBody {
  return { ...chatBase('chat_accepted', s), agent: webhookAgent(agent) };
}

export function chatAssignedBody(s: ChatScope, agent: Agent, assignTo: string): ChatAssignedBody {
  return { ...chatBase('chat_assigned', s), agent: webhookAgent(agent), assign_to: assignTo };
}

export function chatUpdatedBody(s: ChatScope, agent: Agent | null): ChatUpdatedBody {
  return { ...chatBase('chat_updated', s), ...agentKey(agent) };
}

/** message.timestamp is the time of receipt in Unix seconds; plain_messages and html_messages are the mails' transcript. */
export function chatFinishedBody(s: ChatScope, agents: Agent[], messages: Message[], transcript: RenderedTranscript): ChatFinishedBody {
  return {
    ...chatBase('chat_finished', s),
    agents: agents.map(webhookAgent),
    chat: {
      messages: messages
        .filter((m) => m.author !== 'system' && m.internal === 0)
        .map((m) => {
          const item: WebhookTranscriptItem = { timestamp: Math.floor(m.created_at / 1000), type: m.author, message: transcriptText(m) };
          if (m.author === 'agent' && m.agent_id !== null) item.agent_id = m.agent_id;
          if (m.suppressed === 1) item.blacklisted = true;
          return item;
        }),
      rate: s.chat.rate,
      blacklisted: s.chat.blacklisted === 1,
    },
    plain_messages: transcript.text,
    html_messages: transcript.html,
  };
}

/** The form's name, e-mail and phone are the visitor's in this body, whatever the record said before. */
export function offlineMessageBody(channel: Channel, visitor: Visitor | null, offline: { id: number; message: string } & FormContact): OfflineMessageBody {
  const body = { ...base('offline_message', channel, visitor, null, null), offline_message_id: String(offline.id), message: offline.message };
  if (offline.name) body.visitor.name = offline.name;
  if (offline.email) body.visitor.email = offline.email;
  if (offline.phone) body.visitor.phone = offline.phone;
  return body;
}

export function callEventBody(channel: Channel, scope: ChatScope | null, visitor: Visitor | null, agent: Agent | null, call: Call): CallEventBody {
  const head: WebhookBodyBase<'call_event'> & { chat_id?: number } = scope
    ? chatBase('call_event', scope)
    : { ...base('call_event', channel, visitor, null, null), ...(call.chat_id === null ? {} : { chat_id: call.chat_id }) };
  const detail: WebhookCall = { type: call.type, phone: call.phone, status: call.status };
  if (call.status === 'error' && call.reason) detail.reason = call.reason;
  if (call.status === 'end' && call.record_url) detail.record_url = call.record_url;
  return { ...head, ...agentKey(agent), call: detail };
}

export function chatStartedBody(s: ChatScope): ChatStartedBody {
  return chatBase('chat_started', s);
}

export function chatMissedBody(s: ChatScope, waitedMinutes: number): ChatMissedBody {
  return { ...chatBase('chat_missed', s), waited_minutes: waitedMinutes };
}

export function chatRatedBody(s: ChatScope, agent: Agent | null, rate: 'positive' | 'negative'): ChatRatedBody {
  return { ...chatBase('chat_rated', s), ...agentKey(agent), rate };
}

/** A transcript line's text: the message's text, a file's URL (after its caption when it has one), or ''. */
function transcriptText(m: Pick<Message, 'text' | 'file'>): string {
  if (m.file !== null && m.text !== null && m.text !== '') return `${m.text}\n${m.file}`;
  return m.text ?? m.file ?? '';
}

/** visitor_erased: the erased visitor's number and the identifiers the integrator knows (user_token, sender.id). */
export function visitorErasedBody(
  channel: Channel,
  e: { erasure_id: number; visitor_number: number; user_token: string | null; sender_id: string | null; sender_id_is_number: boolean },
): VisitorErasedBody {
  const body: VisitorErasedBody = {
    event_name: 'visitor_erased',
    widget_id: channel.public_id,
    user_token: e.user_token,
    visitor_number: String(e.visitor_number),
    erasure_id: e.erasure_id,
  };
  if (e.sender_id !== null) body.sender_id = e.sender_id_is_number && /^-?\d+$/.test(e.sender_id) ? Number(e.sender_id) : e.sender_id;
  return body;
}
