/**
 * What each stream frame does to the app: inbox updates, alerts for new chats
 * and messages, agent changes, badge counts. Kinds this client does not know
 * are ignored (the server may add kinds; CONTRACT §5 says "at least").
 */
import type { Dispatch } from 'react';
import { chime, notify } from './alerts';
import { api } from './api';
import { chatTitle, isRecord } from './format';
import { chatOfFrame, type InboxAction } from './inbox';
import { navigate } from './router';
import type { Agent, Chat, Message, StreamFrame } from './types';

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
}

export function applyFrame(frame: StreamFrame, fx: FrameEffects): void {
  const data = frame.data ?? {};
  switch (frame.type) {
    case 'chat.created':
    case 'chat.updated': {
      if (!isRecord(data.chat)) return;
      const chat = chatOfFrame(data.chat as unknown as Chat, frame.seq);
      fx.dispatch({ type: 'chat', chat });
      fx.known[chat.id] = true;
      if (frame.type === 'chat.created' && chat.status === 'pending') {
        const who = chatTitle(chat);
        fx.announce(`New chat from ${who}`);
        chime();
        notify('New chat', who, `chat-${chat.id}`, () => navigate(`/chats/${chat.id}`));
      }
      if (data.change === 'transferred' && chat.accepted_by === fx.meId() && data.agent_id !== fx.meId()) {
        const who = chatTitle(chat);
        fx.announce(`Chat with ${who} transferred to you`);
        chime();
        notify('Chat transferred to you', who, `chat-${chat.id}`, () => navigate(`/chats/${chat.id}`));
      }
      return;
    }
    case 'message.created':
    case 'message.updated': {
      if (!isRecord(data.message)) return;
      const message = data.message as unknown as Message;
      const elsewhere = fx.openChatId() !== message.chat_id || document.visibilityState !== 'visible';
      const unread = frame.type === 'message.created' && message.author === 'visitor' && elsewhere;
      fx.dispatch({ type: 'message', message, unread });
      if (!fx.known[message.chat_id]) {
        fx.known[message.chat_id] = true;
        api.chat(message.chat_id).then(
          (chat) => fx.dispatch({ type: 'chat', chat }),
          () => {},
        );
      }
      if (unread) {
        chime();
        notify('New message', message.text ?? 'New message', `chat-${message.chat_id}`, () => navigate(`/chats/${message.chat_id}`));
      }
      return;
    }
    case 'typing':
      if (data.author === 'visitor' && typeof data.chat_id === 'number') {
        fx.dispatch({ type: 'typing', chatId: data.chat_id, until: data.typing === true ? Date.now() + TYPING_TTL_MS : null });
      }
      return;
    case 'agent.updated':
      if (isRecord(data.agent) && typeof data.agent.id === 'number') fx.agentChanged(data.agent as unknown as Agent);
      return;
    case 'offline_message.created':
      fx.bump('offline');
      fx.announce('New offline message');
      chime();
      return;
    case 'call.updated':
      if (isRecord(data.call) && data.call.status === 'start') {
        fx.bump('calls');
        fx.announce('New callback request');
        chime();
      }
      return;
  }
}
