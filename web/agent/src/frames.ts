/**
 * What each stream frame does to the app, as a pure function: the live state
 * before, a frame and the moment it arrives in (who is signed in, the chat and
 * page on screen, the clock), in; the live state after and the effects to run,
 * out (effects.ts runs them). The state is the inbox, the chats this client
 * has a copy of (a message of another one fetches it) and the nav badges. The
 * effects are announcements, alerts and ringing for new chats, messages,
 * offers and transfers, fetches, navigation, the agent changed, the lists
 * loaded again (a channel added, changed or removed: channel.changed) and the
 * items of the live lists (calls, offline messages) that useLiveList follows.
 * Kinds this client does not know are ignored (the server may add kinds; the
 * API may grow). The payload types are protocol/agent.ts's; the checks here
 * guard against a server that sends less than they promise.
 */
import type { AgentDto, CallDto, EventFrame, OfflineMessageDto } from '../../../protocol/agent';
import type { AlertEvent } from './alerts';
import { chatTitle, isRecord } from './format';
import { t } from './i18n';
import { chatOfFrame, inboxReducer, type InboxAction, type InboxState } from './inbox';

const TYPING_TTL_MS = 15_000;

export type BadgeKind = 'offline' | 'calls';

export interface LiveState {
  inbox: InboxState;
  /** Chats this client has a copy of, or asked the server for. */
  known: Record<number, true>;
  /** Items that arrived live and were not looked at yet, for the nav badges. */
  badges: Record<BadgeKind, number>;
}

/** The moment a frame arrives in: read by the caller, so applyFrame reads nothing itself. */
export interface FrameEnv {
  meId: number;
  /** The conversation on screen, if any. */
  openChatId: number | null;
  /** Whether the tab is in front (document.visibilityState). */
  visible: boolean;
  /** The page on screen (routes.ts's name): the inbox, the calls, the offline messages… */
  page: string;
  /** Date.now(). */
  now: number;
}

/** An item of a list the app follows live, by the list it belongs to. */
export type LiveItem = { list: 'calls'; item: CallDto } | { list: 'offline'; item: OfflineMessageDto };
export type LiveList = LiveItem['list'];

export type FrameEffect =
  /** Polite announcement for screen readers. */
  | { type: 'announce'; text: string }
  /** A waiting chat rings until someone accepts it; clicking opens `to`. */
  | { type: 'ring'; chatId: number; title: string; body: string; to: string }
  | { type: 'stopRinging'; chatId: number }
  /** A chime and a desktop notification; `mineOnly`: only for a chat of this agent's that is not ringing already. */
  | { type: 'alert'; event: AlertEvent; title: string; body: string; tag: string; to: string; mineOnly?: number }
  | { type: 'navigate'; to: string }
  /** A chat this client has no copy of: GET it, and put it in the inbox. */
  | { type: 'fetchChat'; chatId: number }
  /** A visitor's message arrived in the conversation on screen: the server is told it is read. */
  | { type: 'markRead'; chatId: number; messageId: number }
  | { type: 'agentChanged'; agent: AgentDto }
  /** Which chats this agent sees may have changed: the lists, and screens holding data of their own, load again. */
  | { type: 'channelsChanged' }
  | { type: 'live'; live: LiveItem };

export interface FrameResult {
  state: LiveState;
  effects: FrameEffect[];
}

export const emptyLive = (inbox: InboxState): LiveState => ({ inbox, known: {}, badges: { offline: 0, calls: 0 } });

export function applyFrame(state: LiveState, frame: EventFrame, env: FrameEnv): FrameResult {
  const effects: FrameEffect[] = [];
  let next = state;
  const dispatch = (action: InboxAction) => {
    next = { ...next, inbox: inboxReducer(next.inbox, action) };
  };
  /** A chat this client has no copy of is fetched, once. */
  const know = (chatId: number, fetch: boolean) => {
    if (next.known[chatId]) return;
    next = { ...next, known: { ...next.known, [chatId]: true } };
    if (fetch) effects.push({ type: 'fetchChat', chatId });
  };
  const bump = (which: BadgeKind) => {
    // The page listing them is on screen: nothing there is unseen.
    if (env.page === which) return;
    next = { ...next, badges: { ...next.badges, [which]: next.badges[which] + 1 } };
  };
  if (!isRecord(frame.data)) return { state, effects };
  switch (frame.type) {
    case 'chat.created':
    case 'chat.updated': {
      const data = frame.data;
      if (!isRecord(data.chat)) break;
      const framed = chatOfFrame(data.chat, frame.seq);
      // Transferred to a department, it is routed anew: the old offer is over (a chat.offered frame brings the new one).
      const chat = data.change === 'transferred' ? { ...framed, offer: null } : framed;
      dispatch({ type: 'chat', chat });
      know(chat.id, false);
      if (frame.type === 'chat.created' && chat.status === 'pending') {
        const who = chatTitle(chat);
        effects.push({ type: 'announce', text: t('workspace.alert.newChatFrom', { name: who }) });
        // Rings in every eligible agent's app until someone accepts it.
        effects.push({ type: 'ring', chatId: chat.id, title: t('workspace.alert.newChat'), body: who, to: `/chats/${chat.id}` });
      }
      if (chat.status !== 'pending') effects.push({ type: 'stopRinging', chatId: chat.id });
      // A rating may come after the finish: the chat's header shows it at once; a screen reader hears it.
      if (data.change === 'rated' && chat.rate)
        effects.push({
          type: 'announce',
          text: t(chat.rate === 'positive' ? 'workspace.alert.ratedGood' : 'workspace.alert.ratedBad', { name: chatTitle(chat) }),
        });
      if (data.change === 'transferred' && chat.accepted_by === env.meId && data.agent_id !== env.meId) {
        const who = chatTitle(chat);
        const to = `/chats/${chat.id}?list=mine`;
        effects.push({ type: 'announce', text: t('workspace.alert.transferredFrom', { name: who }) });
        effects.push({ type: 'alert', event: 'transfer', title: t('workspace.alert.transferred'), body: who, tag: `chat-${chat.id}`, to });
        // On the inbox with no conversation open (a Waiting list saying "No chat is waiting", only a badge
        // counting it): the chat opens, beside "My chats". A conversation on screen, or another page, stays.
        if (env.openChatId === null && env.page === 'inbox') effects.push({ type: 'navigate', to });
      }
      break;
    }
    case 'message.created':
    case 'message.updated': {
      if (!isRecord(frame.data.message)) break;
      const message = frame.data.message;
      const visitorNew = frame.type === 'message.created' && message.author === 'visitor';
      const elsewhere = env.openChatId !== message.chat_id || !env.visible;
      const unread = visitorNew && elsewhere;
      dispatch({ type: 'message', message, unread });
      if (visitorNew && !elsewhere) effects.push({ type: 'markRead', chatId: message.chat_id, messageId: message.id });
      know(message.chat_id, true);
      if (unread) {
        const title = t('workspace.alert.newMessage');
        const to = `/chats/${message.chat_id}`;
        effects.push({
          type: 'alert',
          event: 'new_message',
          title,
          body: message.text ?? title,
          tag: `chat-${message.chat_id}`,
          to,
          mineOnly: message.chat_id,
        });
      }
      break;
    }
    case 'typing': {
      const data = frame.data;
      if (data.author === 'visitor' && typeof data.chat_id === 'number')
        dispatch({ type: 'typing', chatId: data.chat_id, until: data.typing === true ? env.now + TYPING_TTL_MS : null });
      break;
    }
    case 'chat.offered': {
      // Whose turn a waiting chat is (docs/ROUTING.md): the list mark and the offer bar follow it.
      const data = frame.data;
      if (typeof data.chat_id !== 'number' || typeof data.agent_id !== 'number' || typeof data.expires_at !== 'number') break;
      const offer = { agent_id: data.agent_id, attempt: data.attempt, expires_at: data.expires_at };
      dispatch({ type: 'offered', chatId: data.chat_id, offer, seq: frame.seq });
      know(data.chat_id, true);
      if (data.agent_id === env.meId) {
        const seconds = Math.max(1, Math.round((data.expires_at - env.now) / 1000));
        effects.push({ type: 'announce', text: t('workspace.alert.offeredAnnounced', { seconds }) });
        effects.push({
          type: 'alert',
          event: 'new_chat',
          title: t('workspace.alert.offered'),
          body: t('workspace.alert.offeredBody', { seconds }),
          tag: `chat-${data.chat_id}`,
          to: `/chats/${data.chat_id}`,
        });
      } else if (data.previous_agent_id === env.meId) {
        effects.push({ type: 'announce', text: t('workspace.alert.offerMoved') });
      }
      break;
    }
    case 'chat.read': {
      // This agent read the chat on another device (or on this one: the same count again). The chat on screen stays read.
      const data = frame.data;
      if (data.agent_id !== env.meId || typeof data.chat_id !== 'number' || typeof data.unread_count !== 'number') break;
      if (data.chat_id === env.openChatId && env.visible) break;
      dispatch({ type: 'read', chatId: data.chat_id, unread: data.unread_count });
      break;
    }
    case 'visitor.erased':
      if (typeof frame.data.visitor_id === 'number') dispatch({ type: 'erased', visitorId: frame.data.visitor_id });
      break;
    case 'agent.updated':
      if (isRecord(frame.data.agent) && typeof frame.data.agent.id === 'number') effects.push({ type: 'agentChanged', agent: frame.data.agent });
      break;
    case 'channel.changed':
      effects.push({ type: 'channelsChanged' });
      break;
    case 'offline_message.created':
    case 'offline_message.updated': {
      // A new message, or one another agent marked handled or not handled: the list shows it as it is now.
      const item = frame.data.offline_message;
      if (isRecord(item) && typeof item.id === 'number') effects.push({ type: 'live', live: { list: 'offline', item } });
      if (frame.type !== 'offline_message.created') break;
      bump('offline');
      effects.push({ type: 'announce', text: t('workspace.alert.offline') });
      effects.push({
        type: 'alert',
        event: 'other',
        title: t('workspace.alert.offline'),
        body: t('workspace.alert.offlineBody'),
        tag: 'offline-message',
        to: '/offline',
      });
      break;
    }
    case 'call.updated': {
      const call = frame.data.call;
      if (!isRecord(call) || typeof call.id !== 'number') break;
      effects.push({ type: 'live', live: { list: 'calls', item: call } });
      if (call.status !== 'start') break;
      bump('calls');
      effects.push({ type: 'announce', text: t('workspace.alert.callback') });
      effects.push({
        type: 'alert',
        event: 'other',
        title: t('workspace.alert.callback'),
        body: t('workspace.alert.callbackBody'),
        tag: 'callback',
        to: '/calls',
      });
      break;
    }
  }
  return { state: next, effects };
}
