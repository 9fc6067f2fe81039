/**
 * The shapes of event webhook bodies (spec C "Events", docs/EVENTS.md), one per
 * event_name. A key without a value is left out, never sent as null: strict
 * receivers refuse a null where the spec promises an object or a number. The
 * two nulls the spec itself names stay: the top-level `user_token` (docs/EVENTS.md) and `chat.rate` of chat_finished. keys.ts documents every key (and
 * when it can be absent) for docs/EVENTS.md.
 */
import type { Call, Chat } from '../../db/schema.js';
import type { WebhookAgent, WebhookPage, WebhookSession, WebhookVisitor } from './objects.js';
import type { WebhookEventName } from '../../model/webhookEventNames.js';
// The names live below the presenters: the settings read them too (model/eventTypes.ts).
export { SPEC_EVENT_NAMES, OPT_IN_EVENT_NAMES, WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../model/webhookEventNames.js';

/** What every event webhook body carries. */
export interface WebhookBodyBase<N extends WebhookEventName = WebhookEventName> {
  event_name: N;
  widget_id: string;
  /** null when the page never called setUserToken (docs/EVENTS.md). */
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
  /** Absent before an agent accepted the chat. */
  agent?: WebhookAgent;
}

/** One message of chat_finished's transcript; timestamp in Unix seconds, type the author. */
export interface WebhookTranscriptItem {
  timestamp: number;
  type: 'visitor' | 'agent' | 'system';
  message: string;
  agent_id?: number;
  blacklisted?: true;
}

export interface WebhookFinishedChat {
  messages: WebhookTranscriptItem[];
  /** The spec's own null: not rated. */
  rate: Chat['rate'];
  blacklisted: boolean;
}

export interface ChatFinishedBody extends WebhookChatBase<'chat_finished'> {
  agents: WebhookAgent[];
  chat: WebhookFinishedChat;
  /** The transcript as the mails write it: plain text, one line per message. */
  plain_messages: string;
  /** The same transcript as HTML, every value escaped. */
  html_messages: string;
}

/** No chat, so no department either. */
export interface OfflineMessageBody extends Omit<WebhookBodyBase<'offline_message'>, 'department'> {
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
  /** Absent for a call outside a chat. */
  chat_id?: number;
  /** Absent until an agent takes the call. */
  agent?: WebhookAgent;
  call: WebhookCall;
}

export type ChatStartedBody = WebhookChatBase<'chat_started'>;

export interface ChatMissedBody extends WebhookChatBase<'chat_missed'> {
  /** Whole minutes from the chat's start until it was missed (domain/chats/missedChat.ts). */
  waited_minutes: number;
}

export interface ChatRatedBody extends WebhookChatBase<'chat_rated'> {
  /** Absent while no agent accepted the chat. */
  agent?: WebhookAgent;
  rate: 'positive' | 'negative';
}

/** A visitor was erased (DELETE /api/v1/visitors/:id): the identifiers the integrator knows it by, nothing else about it. */
export interface VisitorErasedBody {
  event_name: 'visitor_erased';
  widget_id: string;
  user_token: string | null;
  /** The erased visitor's number, as a string (the `visitor.number` of the other events). */
  visitor_number: string;
  /** The chat channel's sender.id, as it arrived (string or number); absent for a widget visitor. */
  sender_id?: string | number;
  erasure_id: number;
}

/** Each event_name with its body. */
export interface WebhookBodies {
  chat_accepted: ChatAcceptedBody;
  chat_assigned: ChatAssignedBody;
  chat_updated: ChatUpdatedBody;
  chat_finished: ChatFinishedBody;
  offline_message: OfflineMessageBody;
  call_event: CallEventBody;
  chat_started: ChatStartedBody;
  chat_missed: ChatMissedBody;
  chat_rated: ChatRatedBody;
  visitor_erased: VisitorErasedBody;
}

/** Every event webhook body, told apart by event_name. */
export type WebhookBody = WebhookBodies[WebhookEventName];
