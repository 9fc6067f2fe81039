/**
 * The push subscriber: turns committed events into Web Push notifications,
 * inside the relay's transaction (events/subscribers.ts), so each one is
 * written exactly once with the event that caused it, whichever instance
 * relays it: one `web_push` delivery (deliveryKind.ts) per subscribed device
 * of each agent it is for.
 *
 *   chat.created (waiting)                → new_chat: the agents who see the chat's channel
 *   chat.offered                          → offered: the agent it is offered to, with the time left
 *   message.created (the visitor's)       → message: the agent holding the chat
 *   chat.updated (change transferred)     → transfer: the agent it was transferred to
 *   call.updated (a callback, status start) → callback: the agents who see its channel
 *   offline_message.created               → offline_message: the agents who see its channel
 *
 * Each agent's own alert preferences decide, as in the app (web/agent/src/alerts.ts):
 * nothing while muted, the event's own switch (new chat and offers: `new_chat`;
 * message: `new_message`; transfer: `transfer`); an agent who chose Offline
 * (or whose account's default is Offline and who never chose) gets nothing;
 * an agent with a visible agent-app tab (subscriptions.ts) gets nothing, as
 * that tab already alerts. The agent who caused the event is never notified of it.
 * Titles and bodies are in each receiving agent's language (Profile → Language;
 * English while none is chosen), from the server's catalogue (mail/templates/agentTexts/).
 */
import type { AgentLanguage } from '../../protocol/agent.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import { chosenStatus, presenceSettingsOf } from '../domain/agents/chosenStatus.js';
import { notificationPrefsOf, type AlertEvent } from '../domain/agents/notificationPrefs.js';
import type { RelayedEvent } from '../events/catalogue.js';
import type { Subscriber } from '../events/subscriber.js';
import { say, textLanguage } from '../mail/templates/agentTexts/index.js';
import { enqueueDelivery } from '../webhooks/enqueue.js';
import type { PushJob, PushPayload, Urgency } from './deliveryKind.js';
import { agentsWithVisibleTab } from './subscriptions.js';

export const TEXT_CHARS = 100;
const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

/** A notification's title and body in one language. */
type Words = (lang: AgentLanguage) => Pick<PushPayload, 'title' | 'body'>;

interface Notice {
  payload: Omit<PushPayload, 'title' | 'body'>;
  words: Words;
  ttl: number;
  urgency: Urgency;
  topic: string;
  /** The preference switch that must be on; null: only `muted` silences it. */
  alert: AlertEvent | null;
  chatId: number | null;
  visitorId: number | null;
}

/** The first TEXT_CHARS characters (by code point), one line. */
export function excerpt(text: string | null | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > TEXT_CHARS ? `${chars.slice(0, TEXT_CHARS - 1).join('')}…` : flat;
}

function visitorLabel(v: { name: string | null; number: number } | undefined | null, lang: AgentLanguage): string {
  return v?.name?.trim() || (v ? say(lang, 'visitorNumbered', { number: v.number }) : say(lang, 'someVisitor'));
}

async function visitorOfChat(tx: Tx, chatId: number): Promise<{ name: string | null; number: number } | undefined> {
  return tx
    .selectFrom('chats')
    .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
    .select(['visitors.name', 'visitors.number'])
    .where('chats.id', '=', chatId)
    .executeTakeFirst();
}

/** The active agents who see a channel's chats (loadChat.ts's rule): admins, and its agents (everyone when it names none). */
async function agentsOfChannel(tx: Tx, accountId: number, channelId: number | null): Promise<number[]> {
  const agents = await tx.selectFrom('agents').select(['id', 'role']).where('account_id', '=', accountId).where('active', '=', 1).execute();
  if (channelId === null) return agents.map((a) => a.id);
  const members = await tx.selectFrom('channel_agents').select('agent_id').where('channel_id', '=', channelId).execute();
  if (members.length === 0) return agents.map((a) => a.id);
  const named = new Set(members.map((m) => m.agent_id));
  return agents.filter((a) => a.role === 'admin' || named.has(a.id)).map((a) => a.id);
}

/** One delivery per subscribed device of each of `agentIds` whose preferences, status and tabs let it through. */
async function pushTo(tx: Tx, ctx: AppContext, event: RelayedEvent, agentIds: number[], notice: Notice, except: number | null = null): Promise<void> {
  const ids = [...new Set(agentIds)].filter((id) => id !== except);
  if (ids.length === 0) return;
  const subs = await tx.selectFrom('push_subscriptions').select(['id', 'agent_id', 'endpoint']).where('agent_id', 'in', ids).execute();
  if (subs.length === 0) return;
  const now = ctx.clock();
  const agents = await tx
    .selectFrom('agents')
    .select(['id', 'active', 'chosen_status', 'notification_prefs_json', 'language'])
    .where('id', 'in', [...new Set(subs.map((s) => s.agent_id))])
    .where('account_id', '=', event.account_id)
    .execute();
  const presence = await presenceSettingsOf(tx, event.account_id);
  const visible = await agentsWithVisibleTab(
    tx,
    agents.map((a) => a.id),
    now,
  );
  const wanted = new Set(
    agents
      .filter((a) => {
        if (a.active !== 1 || visible.has(a.id) || chosenStatus(a, presence) === 'offline') return false;
        const prefs = notificationPrefsOf(a.notification_prefs_json);
        return !prefs.muted && (notice.alert === null || prefs.events[notice.alert]);
      })
      .map((a) => a.id),
  );
  const languageOf = new Map(agents.map((a) => [a.id, textLanguage(a.language)]));
  const worded = new Map<AgentLanguage, PushPayload>();
  const payloadIn = (lang: AgentLanguage): PushPayload => {
    const { kind, url, chat_id, tag } = notice.payload;
    const payload = worded.get(lang) ?? { kind, ...notice.words(lang), url, chat_id, tag };
    worded.set(lang, payload);
    return payload;
  };
  for (const sub of subs) {
    if (!wanted.has(sub.agent_id)) continue;
    const payload = payloadIn(languageOf.get(sub.agent_id) ?? 'en');
    const job: PushJob = { subscription_id: sub.id, payload, ttl: notice.ttl, urgency: notice.urgency, topic: notice.topic };
    await enqueueDelivery(
      tx,
      {
        accountId: event.account_id,
        kind: 'web_push',
        eventType: `push.${notice.payload.kind}`,
        url: sub.endpoint,
        body: job,
        chatId: notice.chatId,
        eventId: event.id,
        visitorId: notice.visitorId,
      },
      now,
    );
  }
}

function chatNotice(kind: PushPayload['kind'], chatId: number, words: Words, alert: AlertEvent, ttl: number): Notice {
  return {
    payload: { kind, url: `/chats/${chatId}`, chat_id: chatId, tag: `chat-${chatId}` },
    words,
    ttl,
    urgency: 'high',
    topic: `chat-${chatId}`,
    alert,
    chatId,
    visitorId: null,
  };
}

async function newChat(tx: Tx, ctx: AppContext, event: RelayedEvent<'chat.created'>): Promise<void> {
  const chat = event.data.chat;
  const visitor = await visitorOfChat(tx, chat.id);
  const first = await tx
    .selectFrom('messages')
    .select('text')
    .where('chat_id', '=', chat.id)
    .where('author', '=', 'visitor')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  const words: Words = (lang) => ({
    title: say(lang, 'pushNewChatTitle', { name: visitorLabel(visitor, lang) }),
    body: excerpt(first?.text) || say(lang, 'pushNewChatBody'),
  });
  const notice = chatNotice('new_chat', chat.id, words, 'new_chat', HOUR_S);
  await pushTo(tx, ctx, event, await agentsOfChannel(tx, event.account_id, chat.channel_id), notice);
}

async function offered(tx: Tx, ctx: AppContext, event: RelayedEvent<'chat.offered'>): Promise<void> {
  const { chat_id: chatId, agent_id: agentId, expires_at: expiresAt } = event.data;
  const seconds = Math.max(1, Math.round((expiresAt - event.created_at) / 1000));
  const visitor = await visitorOfChat(tx, chatId);
  const words: Words = (lang) => ({
    title: say(lang, 'pushOfferedTitle', { name: visitorLabel(visitor, lang) }),
    body: say(lang, 'pushOfferedBody', { seconds }),
  });
  const notice = chatNotice('offered', chatId, words, 'new_chat', seconds);
  await pushTo(tx, ctx, event, [agentId], notice);
}

async function visitorMessage(tx: Tx, ctx: AppContext, event: RelayedEvent<'message.created'>): Promise<void> {
  const message = event.data.message;
  // One query on the chat channel's hot path: nothing more unless the chat's agent has a device subscribed.
  const chat = await tx
    .selectFrom('chats')
    .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
    .innerJoin('push_subscriptions', 'push_subscriptions.agent_id', 'chats.accepted_by')
    .select(['chats.status', 'chats.accepted_by', 'visitors.name', 'visitors.number'])
    .where('chats.id', '=', message.chat_id)
    .limit(1)
    .executeTakeFirst();
  // A waiting chat's messages: the new-chat notification (and the ringing) covers them.
  if (!chat || chat.status !== 'active' || chat.accepted_by === null) return;
  const words: Words = (lang) => ({
    title: visitorLabel(chat, lang),
    body: message.text
      ? excerpt(message.text)
      : message.file_name
        ? say(lang, 'pushMessageFile', { file: excerpt(message.file_name) })
        : say(lang, 'pushMessageOther'),
  });
  const notice = chatNotice('message', message.chat_id, words, 'new_message', DAY_S);
  await pushTo(tx, ctx, event, [chat.accepted_by], notice);
}

async function transferred(tx: Tx, ctx: AppContext, event: RelayedEvent<'chat.updated'>): Promise<void> {
  const chat = event.data.chat;
  if (chat.accepted_by === null) return;
  const visitor = await visitorOfChat(tx, chat.id);
  const words: Words = (lang) => ({ title: say(lang, 'pushTransferTitle'), body: visitorLabel(visitor, lang) });
  const notice = chatNotice('transfer', chat.id, words, 'transfer', DAY_S);
  await pushTo(tx, ctx, event, [chat.accepted_by], notice, event.data.agent_id ?? null);
}

async function callback(tx: Tx, ctx: AppContext, event: RelayedEvent<'call.updated'>): Promise<void> {
  const call = event.data.call;
  const visitor =
    call.visitor_id === null ? undefined : await tx.selectFrom('visitors').select(['name', 'number']).where('id', '=', call.visitor_id).executeTakeFirst();
  const notice: Notice = {
    payload: {
      kind: 'callback',
      url: `/calls?call=${call.id}`,
      chat_id: call.chat_id,
      tag: `call-${call.id}`,
    },
    words: (lang) => ({ title: say(lang, 'pushCallbackTitle'), body: say(lang, 'pushCallbackBody', { name: visitorLabel(visitor, lang) }) }),
    ttl: DAY_S,
    urgency: 'high',
    topic: `call-${call.id}`,
    alert: null,
    chatId: call.chat_id,
    visitorId: call.visitor_id,
  };
  await pushTo(tx, ctx, event, await agentsOfChannel(tx, event.account_id, call.channel_id), notice);
}

async function offlineMessage(tx: Tx, ctx: AppContext, event: RelayedEvent<'offline_message.created'>): Promise<void> {
  const offline = event.data.offline_message;
  const notice: Notice = {
    payload: {
      kind: 'offline_message',
      url: '/offline',
      chat_id: null,
      tag: `offline-${offline.id}`,
    },
    words: (lang) => {
      const name = offline.name?.trim();
      return { title: name ? say(lang, 'pushOfflineTitle', { name }) : say(lang, 'pushOfflineTitleAnonymous'), body: excerpt(offline.message) };
    },
    ttl: DAY_S,
    urgency: 'normal',
    topic: `offline-${offline.id}`,
    alert: null,
    chatId: null,
    visitorId: offline.visitor_id,
  };
  await pushTo(tx, ctx, event, await agentsOfChannel(tx, event.account_id, offline.channel_id), notice);
}

export const pushNotifications: Subscriber = {
  name: 'push',
  handles: ['chat.created', 'chat.offered', 'message.created', 'chat.updated', 'call.updated', 'offline_message.created'],
  // Read defensively: a row whose payload is not what its name promises (an older version's, a
  // test's) would count as this subscriber failing, and hold the relay's batch back while it retries.
  wants: (event) =>
    (event.type === 'chat.created' && event.data.chat?.status === 'pending') ||
    event.type === 'chat.offered' ||
    (event.type === 'message.created' && event.data.message?.author === 'visitor') ||
    (event.type === 'chat.updated' && event.data.change === 'transferred') ||
    (event.type === 'call.updated' && event.data.call?.status === 'start' && event.data.call.type === 'callback') ||
    event.type === 'offline_message.created',
  async handle(tx, event, ctx) {
    if (event.type === 'chat.created') await newChat(tx, ctx, event);
    else if (event.type === 'chat.offered') await offered(tx, ctx, event);
    else if (event.type === 'message.created') await visitorMessage(tx, ctx, event);
    else if (event.type === 'chat.updated') await transferred(tx, ctx, event);
    else if (event.type === 'call.updated') await callback(tx, ctx, event);
    else if (event.type === 'offline_message.created') await offlineMessage(tx, ctx, event);
  },
};
