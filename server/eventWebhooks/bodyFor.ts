/**
 * Which event webhook a committed outbox event makes, and its body:
 *   chat.created  (a new chat)             → chat_started   (opt-in)
 *   chat.updated  change=accepted          → chat_accepted
 *                 change=assigned          → chat_assigned (assign_to = crm_link)
 *                 change=visitor_updated   → chat_updated
 *                 change=finished          → chat_finished
 *                 change=missed            → chat_missed    (opt-in)
 *                 change=rated             → chat_rated     (opt-in)
 *   offline_message.created                → offline_message
 *   call.updated                           → call_event
 *   visitor.erased                         → visitor_erased (opt-in)
 * webhookNameOf() is cheap (no reads), so a type the account switched off
 * costs nothing; buildBody() reads what the body needs, inside the relay's
 * transaction.
 */
import type { Tx } from '../db/database.js';
import type { Call } from '../db/schema.js';
import { waitedMinutes } from '../domain/chats/missedChat.js';
import { assertNever, type RelayedEvent } from '../events/catalogue.js';
import { renderTranscript } from '../mail/compose.js';
import { loadTranscript } from '../mail/transcript.js';
import * as bodies from '../presenters/webhook/events.js';
import type { WebhookBody, WebhookEventName } from '../presenters/webhook/events.js';
import { loadAgent, loadChatAgents, loadChatScope, loadVisitor } from './loadScope.js';

export function webhookNameOf(event: RelayedEvent): WebhookEventName | null {
  switch (event.type) {
    case 'chat.created':
      return event.data.change === undefined ? 'chat_started' : null;
    case 'chat.updated':
      switch (event.data.change) {
        case 'accepted':
          return 'chat_accepted';
        case 'assigned':
          return 'chat_assigned';
        case 'visitor_updated':
          return 'chat_updated';
        case 'finished':
          return 'chat_finished';
        case 'missed':
          return 'chat_missed';
        case 'rated':
          return 'chat_rated';
        default:
          return null;
      }
    case 'offline_message.created':
      return 'offline_message';
    case 'call.updated':
      return 'call_event';
    case 'visitor.erased':
      return 'visitor_erased';
    case 'message.created':
    case 'message.updated':
    case 'offline_message.updated':
    case 'typing':
    case 'agent.updated':
    case 'working_hours.changed':
    case 'chat.offered':
    case 'chat.read':
    case 'channel.changed':
      return null;
    default:
      return assertNever(event);
  }
}

/** What the body needs besides the event: the account's time zone (the transcript's HH:MM). */
export interface BodyContext {
  timezone: string;
}

async function chatBody(tx: Tx, name: WebhookEventName, event: RelayedEvent<'chat.created' | 'chat.updated'>, c: BodyContext): Promise<WebhookBody | null> {
  if (event.chat_id === null) return null;
  const scope = await loadChatScope(tx, event.chat_id);
  if (!scope) return null;
  const accepted = () => loadAgent(tx, event.account_id, scope.chat.accepted_by);
  switch (name) {
    case 'chat_started':
      return bodies.chatStartedBody(scope);
    case 'chat_accepted': {
      const agent = await loadAgent(tx, event.account_id, event.data.agent_id ?? scope.chat.accepted_by);
      return agent ? bodies.chatAcceptedBody(scope, agent) : null;
    }
    case 'chat_assigned': {
      const agent = await loadAgent(tx, event.account_id, event.data.agent_id ?? scope.chat.accepted_by);
      return agent && scope.chat.crm_link ? bodies.chatAssignedBody(scope, agent, scope.chat.crm_link) : null;
    }
    case 'chat_updated':
      return bodies.chatUpdatedBody(scope, await accepted());
    case 'chat_finished': {
      const messages = await tx.selectFrom('messages').selectAll().where('chat_id', '=', scope.chat.id).orderBy('id', 'asc').execute();
      const transcript = await loadTranscript(tx, { accountId: event.account_id, chatId: scope.chat.id, timezone: c.timezone, withNotes: false });
      return bodies.chatFinishedBody(scope, await loadChatAgents(tx, scope), messages, renderTranscript(transcript?.lines ?? []));
    }
    case 'chat_missed': {
      return bodies.chatMissedBody(scope, waitedMinutes(scope.chat, event.created_at));
    }
    case 'chat_rated': {
      // The rating given, as recorded with the event (a later change is its own event).
      const rate = event.data.chat.rate;
      return rate ? bodies.chatRatedBody(scope, await accepted(), rate) : null;
    }
    default:
      return null;
  }
}

async function offlineMessage(tx: Tx, event: RelayedEvent<'offline_message.created'>): Promise<WebhookBody | null> {
  const id = event.data.offline_message.id;
  const offline = await tx.selectFrom('offline_messages').selectAll().where('id', '=', id).where('account_id', '=', event.account_id).executeTakeFirst();
  if (!offline) return null;
  const channel = await tx.selectFrom('channels').selectAll().where('id', '=', offline.channel_id).executeTakeFirstOrThrow();
  return bodies.offlineMessageBody(channel, await loadVisitor(tx, offline.visitor_id), offline);
}

async function callUpdated(tx: Tx, event: RelayedEvent<'call.updated'>): Promise<WebhookBody | null> {
  const snap = event.data.call;
  const row = await tx.selectFrom('calls').selectAll().where('id', '=', snap.id).where('account_id', '=', event.account_id).executeTakeFirst();
  if (!row || row.channel_id === null) return null;
  // The call as it was when the event was recorded: a later status must not overwrite this one.
  const call: Call = {
    ...row,
    status: snap.status,
    agent_id: snap.agent_id,
    reason: snap.reason ?? null,
    record_url: snap.record_url ?? null,
  };
  const channel = await tx.selectFrom('channels').selectAll().where('id', '=', call.channel_id).executeTakeFirstOrThrow();
  const scope = call.chat_id === null ? null : await loadChatScope(tx, call.chat_id);
  const visitor = scope?.visitor ?? (await loadVisitor(tx, call.visitor_id));
  return bodies.callEventBody(channel, scope, visitor, await loadAgent(tx, event.account_id, call.agent_id), call);
}

/** The body of the webhook `name` (webhookNameOf(event)); null when what it is about is gone. */
export async function buildBody(tx: Tx, name: WebhookEventName, event: RelayedEvent, c: BodyContext): Promise<WebhookBody | null> {
  switch (event.type) {
    case 'chat.created':
    case 'chat.updated':
      return chatBody(tx, name, event, c);
    case 'offline_message.created':
      return offlineMessage(tx, event);
    case 'call.updated':
      return callUpdated(tx, event);
    case 'visitor.erased': {
      if (event.data.channel_id === null) return null;
      const channel = await tx.selectFrom('channels').selectAll().where('id', '=', event.data.channel_id).executeTakeFirst();
      return channel ? bodies.visitorErasedBody(channel, event.data) : null;
    }
    default:
      // Every other type makes no webhook: webhookNameOf, which names each type, answered null.
      return null;
  }
}
