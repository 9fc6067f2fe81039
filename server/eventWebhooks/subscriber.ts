/**
 * Event webhooks (spec C): turns committed outbox events into signed deliveries
 * to the account's event_webhook_url, inside the relay's transaction. Which
 * event makes which webhook, and its body: bodyFor.ts. No URL configured, or
 * the event type switched off by an admin (settings event_webhook_types: the
 * spec's types on, chat_started/chat_missed/chat_rated off by default) →
 * nothing is made. A paused endpoint (pause.ts) → held.
 * An event type given up on (giveUp.ts) → not sent, counted as skipped.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import { eventTypesOf } from '../model/eventTypes.js';
import { callbackOf } from '../model/callback.js';
import type { RelayedEvent } from '../events/catalogue.js';
import type { Subscriber } from '../events/subscriber.js';
import { enqueueDelivery } from '../webhooks/enqueue.js';
import { buildBody, webhookNameOf } from './bodyFor.js';
import { skipGivenUp } from './giveUp.js';

type WebhookSettings = Awaited<ReturnType<typeof readSettings>>;

/**
 * The account's webhook settings. A share lock on PostgreSQL: an admin
 * switching a type off waits for this transaction and then cancels what it
 * made, or this one reads the new choice. Whether any type is given up on
 * comes in the same statement: the usual answer (none) costs no second one.
 */
function readSettings(tx: Tx, accountId: number, ctx: AppContext) {
  return tx
    .selectFrom('settings')
    .select(['event_webhook_url', 'webhooks_paused_reason', 'event_webhook_types_json', 'callback_json'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('event_webhook_given_up').select('event_type').whereRef('event_webhook_given_up.account_id', '=', 'settings.account_id'))
        .as('given_up'),
    )
    .where('account_id', '=', accountId)
    .$if(ctx.store.dialect === 'postgres', (q) => q.forShare())
    .executeTakeFirst();
}

/**
 * Read once per account and relay transaction (issue 23): the row cannot
 * change before the transaction ends (PostgreSQL: the share lock taken by the
 * first read; SQLite: one writer, this one). Dropped when a handle fails, as
 * its savepoint's rollback may have released the lock.
 */
const settingsByTx = new WeakMap<Tx, Map<number, WebhookSettings>>();

async function settingsOf(tx: Tx, accountId: number, ctx: AppContext): Promise<WebhookSettings> {
  let cache = settingsByTx.get(tx);
  if (!cache) settingsByTx.set(tx, (cache = new Map<number, WebhookSettings>()));
  if (cache.has(accountId)) return cache.get(accountId);
  const settings = await readSettings(tx, accountId, ctx);
  cache.set(accountId, settings);
  return settings;
}

export const eventWebhooks: Subscriber = {
  name: 'event-webhooks',
  handles: ['chat.created', 'chat.updated', 'offline_message.created', 'call.updated', 'visitor.erased'],
  wants: (event) => webhookNameOf(event) !== null,
  async handle(tx: Tx, event: RelayedEvent, ctx: AppContext): Promise<void> {
    try {
      await makeWebhook(tx, event, ctx);
    } catch (err) {
      settingsByTx.delete(tx);
      throw err;
    }
  },
};

async function makeWebhook(tx: Tx, event: RelayedEvent, ctx: AppContext): Promise<void> {
  const name = webhookNameOf(event);
  if (name === null) return;
  const settings = await settingsOf(tx, event.account_id, ctx);
  if (!settings?.event_webhook_url || !eventTypesOf(settings)[name]) return;
  const body = await buildBody(tx, name, event, { timezone: callbackOf(settings).timezone });
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
      visitorId: visitorIdOf(event),
      paused: settings.webhooks_paused_reason !== null,
    },
    ctx.clock(),
  );
}

/** The visitor an event of no chat is about (offline messages, calls), for erasure. */
function visitorIdOf(event: RelayedEvent): number | null {
  if (event.type === 'offline_message.created') return event.data.offline_message.visitor_id;
  if (event.type === 'call.updated') return event.data.visitor_id;
  return null;
}
