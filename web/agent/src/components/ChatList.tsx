/** A list of chats: visitor, last line, time, unread count, typing; waiting chats get a Reply button. */
import { useApp } from '../context';
import { chatTitle, time } from '../format';
import { Link } from '../router';
import type { Chat } from '../types';
import { ReplyButton } from './ReplyButton';

interface Props {
  chats: Chat[];
  openId: number | null;
  empty: string;
  label: string;
}

export function ChatList({ chats, openId, empty, label }: Props) {
  const { inbox } = useApp();
  if (chats.length === 0) return <p className="muted pad">{empty}</p>;
  return (
    <ul className="chat-list" aria-label={label}>
      {chats.map((chat) => {
        const unread = inbox.unread[chat.id] ?? 0;
        const typing = inbox.typing[chat.id] !== undefined;
        const preview = inbox.preview[chat.id] ?? chat.visitor.invite ?? '';
        return (
          <li key={chat.id} className={`chat-item status-${chat.status}${chat.id === openId ? ' open' : ''}`} data-chat-id={chat.id}>
            <Link href={`/chats/${chat.id}`} className="chat-link" aria-current={chat.id === openId ? 'true' : undefined}>
              <span className="chat-name">{chatTitle(chat)}</span>
              <span className="chat-time">{time(chat.updated_at)}</span>
              <span className="chat-preview">{typing ? 'typing…' : preview}</span>
              {unread > 0 && (
                <span className="badge" aria-label={`${unread} unread`}>
                  {unread}
                </span>
              )}
            </Link>
            {chat.status === 'pending' && <ReplyButton chat={chat} />}
          </li>
        );
      })}
    </ul>
  );
}
