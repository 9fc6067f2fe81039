/** Offline messages left through the widget's offline form (GET /api/v1/offline-messages), newest first, live. */
import { useEffect } from 'react';
import { api } from '../api';
import { useApp, useOnResync } from '../context';
import { dateTime, isRecord, str } from '../format';
import type { OfflineMessage } from '../types';
import { LinkedText } from './LinkedText';
import { useList } from './useList';

export function OfflineMessages() {
  const { onFrame, clearBadge } = useApp();
  const list = useList<OfflineMessage>(() => api.offlineMessages());
  const { upsert, reload } = list;

  useEffect(() => clearBadge('offline'), [clearBadge]);
  useOnResync(reload);
  useEffect(
    () =>
      onFrame((frame) => {
        if (frame.type !== 'offline_message.created') return;
        const item: Record<string, unknown> = isRecord(frame.data.offline_message) ? frame.data.offline_message : frame.data;
        if (typeof item.id === 'number' || typeof item.id === 'string') upsert(item as unknown as OfflineMessage);
        clearBadge('offline');
      }),
    [onFrame, upsert, clearBadge],
  );

  return (
    <section className="page" aria-labelledby="offline-title">
      <h1 id="offline-title">Offline messages</h1>
      {list.missing ? (
        <p className="page-note">Offline messages are not available on this server yet.</p>
      ) : list.error ? (
        <p className="error" role="alert">
          {list.error}
        </p>
      ) : list.loading ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">No offline message yet.</p>
      ) : (
        <ul className="cards" aria-live="polite">
          {list.items.map((m) => (
            <li key={m.id} className="card">
              <p className="card-title">
                <bdi>{str(m.name) ?? 'Anonymous'}</bdi> <span className="muted small">{dateTime(m.created_at)}</span>
              </p>
              <dl className="fields">
                {str(m.email) && (
                  <>
                    <dt>E-mail</dt>
                    <dd>
                      <a href={`mailto:${m.email}`}>{m.email}</a>
                    </dd>
                  </>
                )}
                {str(m.phone) && (
                  <>
                    <dt>Phone</dt>
                    <dd>{m.phone}</dd>
                  </>
                )}
                {str(m.description) && (
                  <>
                    <dt>About</dt>
                    <dd>
                      <bdi>{m.description}</bdi>
                    </dd>
                  </>
                )}
              </dl>
              <LinkedText text={m.message ?? ''} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
