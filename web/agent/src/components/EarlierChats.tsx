/**
 * The visitor's other chats, one click away from the one on screen: each
 * with its date, status, rating and last line, linking to the chat. A
 * separate piece the visitor panel places (GET /api/v1/visitors/:id/chats).
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { dateTime } from '../format';
import { previewOf } from '../inbox';
import { Link } from '../router';
import type { Chat } from '../types';

const SHOWN = 20;
const STATUS = { pending: 'waiting', active: 'active', finished: 'finished' } as const;

export function EarlierChats({ chat }: { chat: Chat }) {
  const [others, setOthers] = useState<Chat[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const visitorId = chat.visitor.id;
  const chatId = chat.id;

  useEffect(() => {
    let cancelled = false;
    setOthers(null);
    setError(null);
    api.visitorChats(visitorId, { limit: SHOWN + 1 }).then(
      (list) => !cancelled && setOthers(list.filter((c) => c.id !== chatId).slice(0, SHOWN)),
      (err: unknown) => !cancelled && setError(`Earlier chats could not be loaded: ${errorText(err)}`),
    );
    return () => {
      cancelled = true;
    };
  }, [visitorId, chatId]);

  return (
    <section className="earlier-chats" aria-labelledby={`earlier-${chatId}`}>
      <h4 id={`earlier-${chatId}`}>Earlier chats</h4>
      {error && <p className="error small">{error}</p>}
      {!error && others === null && <p className="muted small">Loading…</p>}
      {others?.length === 0 && <p className="muted small">This is the visitor’s first chat.</p>}
      {others && others.length > 0 && (
        <ul className="earlier-list">
          {others.map((c) => {
            const line = c.last_message ? previewOf(c.last_message) : null;
            return (
              <li key={c.id}>
                <Link href={`/chats/${c.id}`}>
                  <span className="earlier-when">{dateTime(c.created_at)}</span>{' '}
                  <span className="muted small">
                    {STATUS[c.status]}
                    {c.rate ? ` · ${c.rate === 'positive' ? '👍 rated good' : '👎 rated bad'}` : ''}
                  </span>
                  {line && <bdi className="earlier-line">{line}</bdi>}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
