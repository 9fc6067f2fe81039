/**
 * One conversation: loads the chat with its messages, then stays live through
 * the inbox state (frames add messages, delivery statuses and typing). A
 * waiting chat offered to this agent shows the offer bar (OfferBar). The
 * visitor panel sits beside it (below it at phone width).
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { useSession, useInbox, useAgents } from '../context';
import { mayActOnChat } from '../chatRights';
import { t } from '../i18n';
import { Composer } from './Composer';
import { ConversationHeader } from './ConversationHeader';
import { MessageList } from './MessageList';
import { OfferBar } from './OfferBar';
import { VisitorPanel } from './VisitorPanel';

export function Conversation({ chatId }: { chatId: number }) {
  const { me } = useSession();
  const { inbox, dispatch, setOpenChat, resyncs } = useInbox();
  const { agents } = useAgents();
  const [error, setError] = useState<string | null>(null);
  const chat = inbox.chats[chatId];
  const messages = inbox.messages[chatId];

  // Loaded again after a stream reset (resyncs): frames we missed are gone, the API has the truth.
  useEffect(() => {
    setOpenChat(chatId);
    let cancelled = false;
    api.chat(chatId).then(
      (c) => !cancelled && dispatch({ type: 'chat', chat: c }),
      (err: unknown) => !cancelled && setError(errorText(err)),
    );
    return () => {
      cancelled = true;
      setOpenChat(null);
    };
  }, [chatId, dispatch, setOpenChat, resyncs]);

  if (error && !chat) {
    return (
      <p className="error pad" role="alert">
        {error}
      </p>
    );
  }
  if (!chat || !messages) {
    return (
      <p className="muted pad" aria-busy="true">
        {t('workspace.conversation.loading')}
      </p>
    );
  }

  const typing = inbox.typing[chatId] !== undefined;
  return (
    <article className="conversation" aria-labelledby="conversation-title">
      <ConversationHeader chat={chat} />
      <OfferBar chat={chat} />
      <div className="conversation-body">
        <div className="thread">
          <MessageList messages={messages} chat={chat} />
          <p className="typing-note" aria-live="polite">
            {typing ? t('workspace.conversation.typing') : ''}
          </p>
          {chat.status === 'active' && !mayActOnChat(me, chat) && (
            <p className="muted pad">
              {agents[chat.accepted_by ?? 0]
                ? t('workspace.conversation.heldBy', { name: agents[chat.accepted_by ?? 0].name })
                : t('workspace.conversation.heldByOther')}
            </p>
          )}
          {chat.status === 'active' && <Composer chat={chat} notesOnly={!mayActOnChat(me, chat)} />}
          {chat.status === 'pending' && <p className="muted pad">{t('workspace.conversation.pressReply')}</p>}
          {chat.status === 'finished' && <p className="muted pad">{t('workspace.conversation.finished')}</p>}
        </div>
        <VisitorPanel chat={chat} />
      </div>
    </article>
  );
}
