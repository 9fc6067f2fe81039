/**
 * The visitor's other chats, one click away from the one on screen: each
 * with its date, status, rating and last line, linking to the chat. A
 * separate piece the visitor panel places (GET /api/v1/visitors/:id/chats).
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { dateTime } from '../format';
import { t } from '../i18n';
import { previewOf, previewText } from '../inbox';
import { Link } from '../router';
import type { ChatDto } from '../../../../protocol/agent';

const SHOWN = 20;
const STATUS = { pending: 'workspace.earlier.pending', active: 'workspace.earlier.active', finished: 'workspace.earlier.finished' } as const;

export function EarlierChats({ chat }: { chat: ChatDto }) {
  const [others, setOthers] = useState<ChatDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const visitorId = chat.visitor.id;
  const chatId = chat.id;

  useEffect(() => {
    let cancelled = false;
    setOthers(null);
    setError(null);
    api.visitorChats(visitorId, { limit: SHOWN + 1 }).then(
      (list) => !cancelled && setOthers(list.filter((c) => c.id !== chatId).slice(0, SHOWN)),
      (err: unknown) => !cancelled && setError(errorText(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [visitorId, chatId]);

  return (
    <section className="earlier-chats" aria-labelledby={`earlier-${chatId}`}>
      <h4 id={`earlier-${chatId}`}>{t('workspace.earlier.title')}</h4>
      {error && <p className="error small">{t('workspace.earlier.error', { error })}</p>}
      {!error && others === null && <p className="muted small">{t('common.loading')}</p>}
      {others?.length === 0 && <p className="muted small">{t('workspace.earlier.first')}</p>}
      {others && others.length > 0 && (
        <ul className="earlier-list">
          {others.map((c) => {
            const last = c.last_message ? previewOf(c.last_message) : null;
            const line = last !== null ? previewText(last) : null;
            return (
              <li key={c.id}>
                <Link href={`/chats/${c.id}`}>
                  <span className="earlier-when">{dateTime(c.created_at)}</span>{' '}
                  <span className="muted small">
                    {t(STATUS[c.status])}
                    {c.rate ? ` · ${t(c.rate === 'positive' ? 'workspace.earlier.ratedGood' : 'workspace.earlier.ratedBad')}` : ''}
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
