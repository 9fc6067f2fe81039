/**
 * Offline messages left through the widget's offline form (GET /api/v1/offline-messages), newest first, live;
 * shown Not handled (the default), Handled or All (?handled=), each with a button marking it handled or not
 * handled again (PATCH /api/v1/offline-messages/:id), and who handled it when.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { useAgents, useInbox } from '../context';
import { dateTime, str } from '../format';
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';
import type { OfflineMessageDto } from '../../../../protocol/agent';
import { LinkedText } from './LinkedText';
import { useLiveList } from './useList';

type Filter = 'open' | 'handled' | 'all';
const FILTERS: Array<[Filter, TextKey]> = [
  ['open', 'pages.offline.notHandled'],
  ['handled', 'pages.offline.handled'],
  ['all', 'pages.offline.all'],
];
const handledOf = (f: Filter): boolean | undefined => (f === 'all' ? undefined : f === 'handled');
const EMPTY: Record<Filter, TextKey> = {
  open: 'pages.offline.emptyOpen',
  handled: 'pages.offline.emptyHandled',
  all: 'pages.offline.emptyAll',
};

function HandledButton({ m, onChanged }: { m: OfflineMessageDto; onChanged: (m: OfflineMessageDto) => void }) {
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
        {handled ? t('pages.offline.markNotHandled') : t('pages.offline.markHandled')}
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
  const { clearBadge } = useInbox();
  const { agents } = useAgents();
  const [filter, setFilter] = useState<Filter>('open');
  const list = useLiveList('offline', () => api.offlineMessages({}, handledOf(filter)));
  const { upsert, reload } = list;
  const wanted = handledOf(filter);
  // A message marked (here or live) leaves a list it no longer belongs to.
  const shown = list.items.filter((m) => wanted === undefined || (m.handled_at != null) === wanted);

  useEffect(() => clearBadge('offline'), [clearBadge]);

  return (
    <section className="page" aria-labelledby="offline-title">
      <h1 id="offline-title">{t('pages.offline.title')}</h1>
      <div className="row" role="group" aria-label={t('pages.offline.show')}>
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
            {t(label)}
          </button>
        ))}
      </div>
      {list.error ? (
        <p className="error" role="alert">
          {list.error}
        </p>
      ) : list.loading ? (
        <p className="muted" aria-busy="true">
          {t('common.loading')}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted">{t(EMPTY[filter])}</p>
      ) : (
        <ul className="cards" aria-live="polite" aria-label={t('pages.offline.title')}>
          {shown.map((m) => (
            <li key={m.id} className={m.handled_at != null ? 'card handled' : 'card'}>
              <p className="card-title">
                <bdi>{str(m.name) ?? t('pages.offline.anonymous')}</bdi> <span className="muted small">{dateTime(m.created_at)}</span>
              </p>
              <dl className="fields">
                {str(m.email) && (
                  <>
                    <dt>{t('common.email')}</dt>
                    <dd>
                      <a href={`mailto:${m.email}`}>{m.email}</a>
                    </dd>
                  </>
                )}
                {str(m.phone) && (
                  <>
                    <dt>{t('common.phone')}</dt>
                    <dd>{m.phone}</dd>
                  </>
                )}
                {str(m.description) && (
                  <>
                    <dt>{t('pages.offline.about')}</dt>
                    <dd>
                      <bdi>{m.description}</bdi>
                    </dd>
                  </>
                )}
              </dl>
              <LinkedText text={m.message ?? ''} />
              {m.handled_at != null && (
                <p className="muted small">
                  {m.handled_by != null && agents[m.handled_by]
                    ? t('pages.offline.handledBy', { name: agents[m.handled_by].name, time: dateTime(m.handled_at) })
                    : t('pages.offline.handledAt', { time: dateTime(m.handled_at) })}
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
