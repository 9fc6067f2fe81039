/** The messages of a conversation, oldest first, as a live log: new ones are announced and scrolled into view. */
import { useEffect, useRef } from 'react';
import type { Chat, Message } from '../types';
import { MessageItem } from './MessageItem';

export function MessageList({ messages, chat }: { messages: Message[]; chat: Chat }) {
  const end = useRef<HTMLLIElement>(null);
  const box = useRef<HTMLOListElement>(null);
  const lastId = messages.length > 0 ? messages[messages.length - 1].id : 0;

  const opened = useRef(false);

  useEffect(() => {
    const el = box.current;
    // Open at the newest message; then follow new ones unless the agent scrolled up to read older ones.
    const follow = !opened.current || (el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < 240);
    opened.current = true;
    if (follow) end.current?.scrollIntoView({ block: 'end' });
  }, [lastId]);

  return (
    <ol className="messages" ref={box} role="log" aria-live="polite" aria-relevant="additions" aria-label="Messages">
      {chat.visitor.invite && (
        <li className="message system">
          <p className="invite">
            <span className="muted small">Invitation shown to the visitor: </span>
            {chat.visitor.invite}
          </p>
        </li>
      )}
      {messages.length === 0 && <li className="muted pad">No message yet.</li>}
      {messages.map((m) => (
        <MessageItem key={m.id} message={m} chat={chat} />
      ))}
      <li ref={end} aria-hidden="true" className="messages-end" />
    </ol>
  );
}
