/**
 * Offline messages left through the widget's offline form (GET /api/v1/offline-messages), newest first, live;
 * shown Not handled (the default), Handled or All (?handled=), each with a button marking it handled or not
 * handled again (PATCH /api/v1/offline-messages/:id), and who handled it when.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { useApp, useOnResync } from '../context';
import { dateTime, isRecord, str } from '../format';
import type { OfflineMessage } from '../types';
import { LinkedText } from './LinkedText';
import { useList } from './useList';

type Filter = 'open' | 'handled' | 'all';
const FILTERS: Array<[Filter, string]> = [
  ['open', 'Not handled'],
  ['handled', 'Handled'],
  ['all', 'All'],
];
const handledOf = (f: Filter): boolean | undefined => (f === 'all' ? undefined : f === 'handled');
const EMPTY: Record<Filter, string> = {
  open: 'Every offline message is handled.',
  handled: 'No offline message is marked handled yet.',
  all: 'No offline message yet.',
};

function HandledButton({ m, onChanged }: { m: OfflineMessage; onChanged: (m: OfflineMessage) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handled = m.handled_at != null;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await api.markOfflineMessage(m.id, !handled));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row">
      <button type="button" className={handled ? undefined : 'primary'} disabled={busy} onClick={() => void toggle()}>
        {handled ? 'Mark not handled' : 'Mark handled'}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function OfflineMessages() {
  const { onFrame, clearBadge, agents } = useApp();
  const [filter, setFilter] = useState<Filter>('open');
  const list = useList<OfflineMessage>(() => api.offlineMessages({}, handledOf(filter)));
  const { upsert, reload } = list;
  const wanted = handledOf(filter);
  // A message marked (here or live) leaves a list it no longer belongs to.
  const shown = list.items.filter((m) => wanted === undefined || (m.handled_at != null) === wanted);

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
      <div className="row" role="group" aria-label="Show">
        {FILTERS.map(([key, label]) => (
          <button
            key={key}
            type="button"
            aria-pressed={filter === key}
            className={filter === key ? 'primary' : undefined}
            onClick={() => {
              if (filter === key) return;
              setFilter(key);
              reload();
            }}
          >
            {label}
          </button>
        ))}
      </div>
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
      ) : shown.length === 0 ? (
        <p className="muted">{EMPTY[filter]}</p>
      ) : (
        <ul className="cards" aria-live="polite" aria-label="Offline messages">
          {shown.map((m) => (
            <li key={m.id} className={m.handled_at != null ? 'card handled' : 'card'}>
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
              {m.handled_at != null && (
                <p className="muted small">
                  Handled{m.handled_by != null && agents[m.handled_by] ? <> by {agents[m.handled_by].name}</> : null} · {dateTime(m.handled_at)}
                </p>
              )}
              <HandledButton m={m} onChanged={upsert} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
