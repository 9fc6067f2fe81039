/**
 * What each stream frame does to the app: inbox updates, alerts for new chats
 * and messages, offers (whose turn a waiting chat is), agent changes, badge
 * counts (a chat this agent read on another device: chat.read), list reloads
 * (a channel added, changed or removed: channel.changed). Kinds this client does not know
 * are ignored (the server may add kinds; the API may grow). The
 * payload types are protocol/agent.ts's; the checks here guard against a
 * server that sends less than they promise.
 */
import type { Dispatch } from 'react';
import { alertOf, isMine, isRinging, ringFor, stopRinging } from './alerts';
import { api } from './api';
import { chatTitle, isRecord } from './format';
import { t } from './i18n';
import { chatOfFrame, type InboxAction } from './inbox';
import { navigate } from './router';
import { parseRoute } from './routes';
import type { Agent, StreamFrame } from './types';

const TYPING_TTL_MS = 15_000;

export interface FrameEffects {
  dispatch: Dispatch<InboxAction>;
  /** Chats this client has a copy of (a message of another one makes it fetch the chat). */
  known: Record<number, true>;
  meId: () => number;
  openChatId: () => number | null;
  announce: (text: string) => void;
  agentChanged: (agent: Agent) => void;
  bump: (which: 'offline' | 'calls') => void;
  /** A visitor's message arrived in the conversation on screen: the server is told it is read. */
  seen: (chatId: number, messageId: number) => void;
  /** A channel this agent sees (or saw) changed: which chats it sees may have too; the lists load again. */
  channelsChanged: () => void;
}

export function applyFrame(frame: StreamFrame, fx: FrameEffects): void {
  if (!isRecord(frame.data)) return;
  switch (frame.type) {
    case 'chat.created':
    case 'chat.updated': {
      const data = frame.data;
      if (!isRecord(data.chat)) return;
      const framed = chatOfFrame(data.chat, frame.seq);
      // Transferred to a department, it is routed anew: the old offer is over (a chat.offered frame brings the new one).
      const chat = data.change === 'transferred' ? { ...framed, offer: null } : framed;
      fx.dispatch({ type: 'chat', chat });
      fx.known[chat.id] = true;
      if (frame.type === 'chat.created' && chat.status === 'pending') {
        const who = chatTitle(chat);
        fx.announce(t('workspace.alert.newChatFrom', { name: who }));
        // Rings in every eligible agent's app until someone accepts it.
        ringFor(chat.id, t('workspace.alert.newChat'), who, () => navigate(`/chats/${chat.id}`));
      }
      if (chat.status !== 'pending') stopRinging(chat.id);
      // A rating may come after the finish: the chat's header shows it at once; a screen reader hears it.
      if (data.change === 'rated' && chat.rate)
        fx.announce(t(chat.rate === 'positive' ? 'workspace.alert.ratedGood' : 'workspace.alert.ratedBad', { name: chatTitle(chat) }));
      if (data.change === 'transferred' && chat.accepted_by === fx.meId() && data.agent_id !== fx.meId()) {
        const who = chatTitle(chat);
        fx.announce(t('workspace.alert.transferredFrom', { name: who }));
        alertOf('transfer', t('workspace.alert.transferred'), who, `chat-${chat.id}`, () => navigate(`/chats/${chat.id}?list=mine`));
        // On the inbox with no conversation open (a Waiting list saying "No chat is waiting", only a badge
        // counting it): the chat opens, beside "My chats". A conversation on screen, or another page, stays.
        if (fx.openChatId() === null && parseRoute(location.pathname).name === 'inbox') navigate(`/chats/${chat.id}?list=mine`);
      }
      return;
    }
    case 'message.created':
    case 'message.updated': {
      if (!isRecord(frame.data.message)) return;
      const message = frame.data.message;
      const elsewhere = fx.openChatId() !== message.chat_id || document.visibilityState !== 'visible';
      const unread = frame.type === 'message.created' && message.author === 'visitor' && elsewhere;
      fx.dispatch({ type: 'message', message, unread });
      if (frame.type === 'message.created' && message.author === 'visitor' && !elsewhere) fx.seen(message.chat_id, message.id);
      if (!fx.known[message.chat_id]) {
        fx.known[message.chat_id] = true;
        api.chat(message.chat_id).then(
          (chat) => fx.dispatch({ type: 'chat', chat }),
          () => {},
        );
      }
      if (unread && isMine(message.chat_id) && !isRinging(message.chat_id))
        alertOf('new_message', t('workspace.alert.newMessage'), message.text ?? t('workspace.alert.newMessage'), `chat-${message.chat_id}`, () =>
          navigate(`/chats/${message.chat_id}`),
        );
      return;
    }
    case 'typing': {
      const data = frame.data;
      if (data.author === 'visitor' && typeof data.chat_id === 'number') {
        fx.dispatch({ type: 'typing', chatId: data.chat_id, until: data.typing === true ? Date.now() + TYPING_TTL_MS : null });
      }
      return;
    }
    case 'chat.offered': {
      // Whose turn a waiting chat is (docs/ROUTING.md): the list mark and the offer bar follow it.
      const data = frame.data;
      if (typeof data.chat_id !== 'number' || typeof data.agent_id !== 'number' || typeof data.expires_at !== 'number') return;
      const offer = { agent_id: data.agent_id, attempt: data.attempt, expires_at: data.expires_at };
      fx.dispatch({ type: 'offered', chatId: data.chat_id, offer, seq: frame.seq });
      if (!fx.known[data.chat_id]) {
        fx.known[data.chat_id] = true;
        api.chat(data.chat_id).then(
          (chat) => fx.dispatch({ type: 'chat', chat }),
          () => {},
        );
      }
      if (data.agent_id === fx.meId()) {
        const seconds = Math.max(1, Math.round((data.expires_at - Date.now()) / 1000));
        fx.announce(t('workspace.alert.offeredAnnounced', { seconds }));
        alertOf('new_chat', t('workspace.alert.offered'), t('workspace.alert.offeredBody', { seconds }), `chat-${data.chat_id}`, () =>
          navigate(`/chats/${data.chat_id}`),
        );
      } else if (data.previous_agent_id === fx.meId()) {
        fx.announce(t('workspace.alert.offerMoved'));
      }
      return;
    }
    case 'chat.read': {
      // This agent read the chat on another device (or on this one: the same count again). The chat on screen stays read.
      const data = frame.data;
      if (data.agent_id !== fx.meId() || typeof data.chat_id !== 'number' || typeof data.unread_count !== 'number') return;
      if (data.chat_id === fx.openChatId() && document.visibilityState === 'visible') return;
      fx.dispatch({ type: 'read', chatId: data.chat_id, unread: data.unread_count });
      return;
    }
    case 'visitor.erased':
      if (typeof frame.data.visitor_id === 'number') fx.dispatch({ type: 'erased', visitorId: frame.data.visitor_id });
      return;
    case 'agent.updated':
      if (isRecord(frame.data.agent) && typeof frame.data.agent.id === 'number') fx.agentChanged(frame.data.agent);
      return;
    case 'channel.changed':
      fx.channelsChanged();
      return;
    case 'offline_message.created':
      fx.bump('offline');
      fx.announce(t('workspace.alert.offline'));
      alertOf('other', t('workspace.alert.offline'), t('workspace.alert.offlineBody'), 'offline-message', () => navigate('/offline'));
      return;
    case 'call.updated':
      if (isRecord(frame.data.call) && frame.data.call.status === 'start') {
        fx.bump('calls');
        fx.announce(t('workspace.alert.callback'));
        alertOf('other', t('workspace.alert.callback'), t('workspace.alert.callbackBody'), 'callback', () => navigate('/calls'));
      }
      return;
  }
}
