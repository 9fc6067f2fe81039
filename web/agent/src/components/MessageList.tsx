/**
 * The messages of a conversation, oldest first, as a live log: new ones are announced and scrolled into view.
 * A list showing its newest message keeps showing it when it gets shorter (a phone's on-screen keyboard opening).
 */
import { useEffect, useRef } from 'react';
import { t } from '../i18n';
import type { ChatDto, MessageDto } from '../../../../protocol/agent';
import { MessageItem } from './MessageItem';

export function MessageList({ messages, chat }: { messages: MessageDto[]; chat: ChatDto }) {
  const box = useRef<HTMLDivElement>(null);
  const last = messages.length > 0 ? messages[messages.length - 1] : null;
  const lastId = last?.id ?? 0;

  const opened = useRef(false);
  /** Whether the newest message is in view (kept by the scroll events). */
  const pinned = useRef(true);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Open at the newest message; then follow new ones (and one's own) unless the agent scrolled up to read older ones.
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 240;
    const follow = !opened.current || pinned.current || near || last?.author === 'agent';
    opened.current = true;
    // The list's own scroll only: scrollIntoView would also move the page, under a phone's keyboard.
    if (follow) el.scrollTop = el.scrollHeight;
    pinned.current = follow || pinned.current;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs per new message, on purpose
  }, [lastId]);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const onScroll = () => {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    };
    const keep = new ResizeObserver(() => {
      if (pinned.current) el.scrollTop = el.scrollHeight;
    });
    el.addEventListener('scroll', onScroll, { passive: true });
    keep.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      keep.disconnect();
    };
  }, []);

  return (
    // The live log is the scrolling box; the messages inside it stay a list (a list's own role may not be "log").
    <div className="messages" ref={box} role="log" aria-live="polite" aria-relevant="additions" aria-label={t('workspace.messages.label')}>
      <ol className="message-items">
        {chat.visitor.invite && (
          <li className="message system">
            <p className="invite">
              <span className="muted small">{t('workspace.messages.invite')} </span>
              {chat.visitor.invite}
            </p>
          </li>
        )}
        {messages.length === 0 && <li className="muted pad">{t('workspace.messages.none')}</li>}
        {messages.map((m) => (
          <MessageItem key={m.id} message={m} chat={chat} />
        ))}
        <li aria-hidden="true" className="messages-end" />
      </ol>
    </div>
  );
}
