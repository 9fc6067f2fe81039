/**
 * The mail subscriber: turns committed events into notification mails, inside
 * the relay's transaction (events/subscribers.ts), so each mail is written
 * exactly once with the event that caused it, one row per recipient.
 *   offline_message.created                → offline_message mail (Reply-To the visitor)
 *   call.updated (a callback, status start) → callback_request mail
 *   chat.updated (change finished)          → chat_archive mail to the archive address, when set
 *   chat.updated (change missed)            → missed_chat mail, when the account set missed_chat_minutes
 *                                             (what a missed chat is: domain/chats/missedChat.ts)
 * Each mail is written in its address's language (mailLanguages.ts): composed
 * once per language among the recipients.
 */
import type { AgentLanguage } from '../../protocol/agent.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import { waitedMinutes } from '../domain/chats/missedChat.js';
import type { RelayedEvent } from '../events/catalogue.js';
import type { Subscriber } from '../events/subscriber.js';
import { parseJson } from '../lib/json.js';
import type { MailContent } from './compose.js';
import { enqueueMail } from './enqueueMail.js';
import { languagesOf } from './mailLanguages.js';
import { notificationScope, type MailScope } from './recipients.js';
import { callbackRequestMail, offlineMessageMail } from './templates/notifications.js';
import { archiveMail, missedChatMail } from './templates/transcript.js';
import { loadTranscript } from './transcript.js';

async function notify(
  tx: Tx,
  ctx: AppContext,
  event: RelayedEvent,
  type: string,
  compose: (scope: MailScope, lang: AgentLanguage) => Promise<MailContent | null>,
  replyTo?: string | null,
) {
  const scope = await notificationScope(tx, ctx.config, event.account_id);
  if (scope.recipients.length === 0) return;
  const languages = await languagesOf(tx, event.account_id, scope.recipients);
  const composed = new Map<AgentLanguage, MailContent | null>();
  for (const to of scope.recipients) {
    const lang = languages.get(to) ?? 'en';
    if (!composed.has(lang)) composed.set(lang, await compose(scope, lang));
    const content = composed.get(lang);
    if (!content) continue;
    await enqueueMail(
      tx,
      ctx.config,
      { accountId: event.account_id, type, to, replyTo, chatId: event.chat_id, visitorId: visitorOf(event), ...content },
      ctx.clock(),
    );
  }
}

/** The visitor a notification about no chat is about (erasure finds its mails). */
function visitorOf(event: RelayedEvent): number | null {
  if (event.type === 'offline_message.created') return event.data.offline_message.visitor_id;
  if (event.type === 'call.updated') return event.data.visitor_id;
  return null;
}

async function offlineMessage(tx: Tx, ctx: AppContext, event: RelayedEvent<'offline_message.created'>): Promise<void> {
  const id = event.data.offline_message.id;
  const offline = await tx.selectFrom('offline_messages').selectAll().where('id', '=', id).where('account_id', '=', event.account_id).executeTakeFirst();
  if (!offline) return;
  const channel = await tx.selectFrom('channels').select('name').where('id', '=', offline.channel_id).executeTakeFirst();
  const visitor =
    offline.visitor_id === null ? null : ((await tx.selectFrom('visitors').select('number').where('id', '=', offline.visitor_id).executeTakeFirst()) ?? null);
  await notify(
    tx,
    ctx,
    event,
    'offline_message',
    async (scope, lang) => offlineMessageMail(scope, ctx.config.publicUrl, { offline, channel: channel ?? { name: '' }, visitor }, lang),
    offline.email,
  );
}

async function callbackRequested(tx: Tx, ctx: AppContext, event: RelayedEvent<'call.updated'>): Promise<void> {
  const snap = event.data.call;
  if (snap.status !== 'start' || snap.type !== 'callback') return;
  const call = await tx.selectFrom('calls').selectAll().where('id', '=', snap.id).where('account_id', '=', event.account_id).executeTakeFirst();
  if (!call || call.type !== 'callback') return;
  const channel = call.channel_id === null ? undefined : await tx.selectFrom('channels').select('name').where('id', '=', call.channel_id).executeTakeFirst();
  const visitor =
    call.visitor_id === null
      ? undefined
      : await tx.selectFrom('visitors').select(['number', 'name', 'session_json']).where('id', '=', call.visitor_id).executeTakeFirst();
  const page = parseJson<{ page?: { url?: unknown } }>(visitor?.session_json, {}).page?.url;
  await notify(tx, ctx, event, 'callback_request', async (scope, lang) =>
    callbackRequestMail(
      scope,
      ctx.config.publicUrl,
      { call, channel: channel ?? { name: '' }, visitor: visitor ?? null, page: typeof page === 'string' ? page : null },
      lang,
    ),
  );
}

async function chatFinished(tx: Tx, ctx: AppContext, event: RelayedEvent<'chat.updated'>): Promise<void> {
  const settings = await tx.selectFrom('settings').select('archive_email').where('account_id', '=', event.account_id).executeTakeFirst();
  const to = settings?.archive_email;
  if (!to) return;
  const scope = await notificationScope(tx, ctx.config, event.account_id);
  const lang = (await languagesOf(tx, event.account_id, [to])).get(to) ?? 'en';
  const transcript = await loadTranscript(tx, { accountId: event.account_id, chatId: event.data.chat.id, timezone: scope.timezone, withNotes: true, lang });
  if (!transcript) return;
  const content = archiveMail(scope, ctx.config.publicUrl, transcript, lang);
  await enqueueMail(tx, ctx.config, { accountId: event.account_id, type: 'chat_archive', to, chatId: transcript.chat.id, ...content }, ctx.clock());
}

async function chatMissed(tx: Tx, ctx: AppContext, event: RelayedEvent<'chat.updated'>): Promise<void> {
  const settings = await tx.selectFrom('settings').select('missed_chat_minutes').where('account_id', '=', event.account_id).executeTakeFirst();
  if (settings?.missed_chat_minutes == null) return;
  await notify(tx, ctx, event, 'missed_chat', async (scope, lang) => {
    const transcript = await loadTranscript(tx, { accountId: event.account_id, chatId: event.data.chat.id, timezone: scope.timezone, withNotes: false, lang });
    return transcript && missedChatMail(scope, ctx.config.publicUrl, transcript, waitedMinutes(transcript.chat, event.created_at), lang);
  });
}

export const mailNotifications: Subscriber = {
  name: 'mail',
  handles: ['offline_message.created', 'call.updated', 'chat.updated'],
  wants: (event) =>
    event.type === 'offline_message.created' ||
    (event.type === 'call.updated' && event.data.call.status === 'start' && event.data.call.type === 'callback') ||
    (event.type === 'chat.updated' && (event.data.change === 'finished' || event.data.change === 'missed')),
  async handle(tx, event, ctx) {
    if (event.type === 'offline_message.created') await offlineMessage(tx, ctx, event);
    else if (event.type === 'call.updated') await callbackRequested(tx, ctx, event);
    else if (event.type === 'chat.updated' && event.data.change === 'missed') await chatMissed(tx, ctx, event);
    else if (event.type === 'chat.updated') await chatFinished(tx, ctx, event);
  },
};
