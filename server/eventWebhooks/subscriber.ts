/**
 * Event webhooks (spec C): turns committed outbox events into signed deliveries
 * to the account's event_webhook_url, inside the relay's transaction.
 *   chat.updated  change=accepted        → chat_accepted
 *                 change=assigned        → chat_assigned (assign_to = crm_link)
 *                 change=visitor_updated → chat_updated
 *                 change=finished        → chat_finished
 *   offline_message.created              → offline_message
 *   call.updated                         → call_event
 * No URL configured → nothing is sent. A paused endpoint (pause.ts) → held.
 * An event type given up on (giveUp.ts) → not sent, counted as skipped.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import type { Call } from '../db/schema.js';
import { assertNever, type RelayedEvent } from '../events/catalogue.js';
import type { Subscriber } from '../events/subscriber.js';
import {
  callEventBody,
  chatAcceptedBody,
  chatAssignedBody,
  chatFinishedBody,
  chatUpdatedBody,
  offlineMessageBody,
  type WebhookBody,
} from '../presenters/webhook/events.js';
import { enqueueDelivery } from '../webhooks/enqueue.js';
import { skipGivenUp } from './giveUp.js';
import { loadAgent, loadChatAgents, loadChatScope } from './loadScope.js';

async function chatUpdated(tx: Tx, event: RelayedEvent<'chat.updated'>): Promise<WebhookBody | null> {
  if (event.chat_id === null) return null;
  const scope = await loadChatScope(tx, event.chat_id);
  if (!scope) return null;
  const actorId = event.data.agent_id ?? scope.chat.accepted_by;
  const agent = await loadAgent(tx, event.account_id, actorId);
  switch (event.data.change) {
    case 'accepted':
      return agent ? chatAcceptedBody(scope, agent) : null;
    case 'assigned':
      return agent && scope.chat.crm_link ? chatAssignedBody(scope, agent, scope.chat.crm_link) : null;
    case 'visitor_updated':
      return chatUpdatedBody(scope, await loadAgent(tx, event.account_id, scope.chat.accepted_by));
    case 'finished': {
      const messages = await tx.selectFrom('messages').selectAll().where('chat_id', '=', scope.chat.id).orderBy('id', 'asc').execute();
      return chatFinishedBody(scope, await loadChatAgents(tx, scope), messages);
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
  const visitor =
    offline.visitor_id === null ? null : ((await tx.selectFrom('visitors').selectAll().where('id', '=', offline.visitor_id).executeTakeFirst()) ?? null);
  return offlineMessageBody(channel, visitor, offline);
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
  const visitor =
    scope?.visitor ??
    (call.visitor_id === null ? null : ((await tx.selectFrom('visitors').selectAll().where('id', '=', call.visitor_id).executeTakeFirst()) ?? null));
  return callEventBody(channel, scope, visitor, await loadAgent(tx, event.account_id, call.agent_id), call);
}

async function bodyFor(tx: Tx, event: RelayedEvent): Promise<WebhookBody | null> {
  switch (event.type) {
    case 'chat.updated':
      return chatUpdated(tx, event);
    case 'offline_message.created':
      return offlineMessage(tx, event);
    case 'call.updated':
      return callUpdated(tx, event);
    case 'chat.created':
    case 'message.created':
    case 'message.updated':
    case 'typing':
    case 'agent.updated':
    case 'working_hours.changed':
      return null;
    default:
      return assertNever(event);
  }
}

export const eventWebhooks: Subscriber = {
  name: 'event-webhooks',
  handles: ['chat.updated', 'offline_message.created', 'call.updated'],
  async handle(tx: Tx, event: RelayedEvent, ctx: AppContext): Promise<void> {
    const settings = await tx
      .selectFrom('settings')
      .select(['event_webhook_url', 'webhooks_paused_reason'])
      // Whether any type is given up on, in the same statement: the usual answer (none) costs no second one.
      .select((eb) =>
        eb
          .exists(eb.selectFrom('event_webhook_given_up').select('event_type').whereRef('event_webhook_given_up.account_id', '=', 'settings.account_id'))
          .as('given_up'),
      )
      .where('account_id', '=', event.account_id)
      .executeTakeFirst();
    if (!settings?.event_webhook_url) return;
    const body = await bodyFor(tx, event);
    if (!body) return;
    if (Boolean(settings.given_up) && (await skipGivenUp(tx, event.account_id, body.event_name))) return;
    await enqueueDelivery(
      tx,
      {
        accountId: event.account_id,
        kind: 'event_webhook',
        eventType: body.event_name,
        url: settings.event_webhook_url,
        body,
        chatId: event.chat_id,
        eventId: event.id,
        paused: settings.webhooks_paused_reason !== null,
      },
      ctx.clock(),
    );
  },
};
