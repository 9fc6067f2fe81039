/**
 * Callback requests (GET /api/v1/calls), newest first, live, with their status
 * actions. `/calls?call=<id>` (the link of the callback-request mail) marks
 * that call and scrolls to it.
 */
import { useEffect, useRef } from 'react';
import { api } from '../api';
import { useInbox } from '../context';
import { dateTime, safeHref } from '../format';
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';
import { Link } from '../router';
import { CallActions } from './CallActions';
import { useLiveList } from './useList';

const LABEL: Record<string, TextKey> = {
  start: 'pages.calls.requested',
  agent_connected: 'pages.calls.agentConnected',
  client_connected: 'pages.calls.clientConnected',
  end: 'pages.calls.ended',
  error: 'pages.calls.failed',
};

/** What the statuses and buttons mean: an agent rings the visitor from their own phone and tells Parley how it goes. */
function CallsHelp({ open }: { open: boolean }) {
  return (
    <details className="card calls-help" open={open || undefined}>
      <summary>{t('pages.calls.helpTitle')}</summary>
      <p>{t('pages.calls.help')}</p>
      <dl>
        <dt>{t('pages.calls.agentConnected')}</dt>
        <dd>{t('pages.calls.helpAgentConnected')}</dd>
        <dt>{t('pages.calls.clientConnected')}</dt>
        <dd>{t('pages.calls.helpClientConnected')}</dd>
        <dt>{t('pages.calls.endCall')}</dt>
        <dd>{t('pages.calls.helpEnd')}</dd>
        <dt>{t('pages.calls.failedButton')}</dt>
        <dd>{t('pages.calls.helpFailed')}</dd>
      </dl>
    </details>
  );
}

export function Calls() {
  const { clearBadge } = useInbox();
  const list = useLiveList('calls', () => api.calls());
  const { upsert } = list;

  const wanted = Number(new URLSearchParams(location.search).get('call')) || null;
  const marked = useRef<HTMLLIElement>(null);
  const found = wanted !== null && list.items.some((c) => c.id === wanted);
  useEffect(() => {
    if (found) marked.current?.scrollIntoView({ block: 'center' });
  }, [found]);

  useEffect(() => clearBadge('calls'), [clearBadge]);

  return (
    <section className="page" aria-labelledby="calls-title">
      <h1 id="calls-title">{t('pages.calls.title')}</h1>
      <CallsHelp open={!list.loading && list.items.length === 0} />
      {list.error ? (
        <p className="error" role="alert">
          {list.error}
        </p>
      ) : list.loading ? (
        <p className="muted" aria-busy="true">
          {t('common.loading')}
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">{t('pages.calls.none')}</p>
      ) : (
        <>
          {wanted !== null && !found && <p className="page-note">{t('pages.calls.notFound', { id: String(wanted) })}</p>}
          <ul className="cards" aria-live="polite">
            {list.items.map((call) => {
              const record = safeHref(call.record_url);
              return (
                <li
                  key={call.id}
                  className={call.id === wanted ? 'card marked' : 'card'}
                  data-call-id={call.id}
                  ref={call.id === wanted ? marked : undefined}
                  aria-current={call.id === wanted ? 'true' : undefined}
                >
                  <p className="card-title">
                    <a href={`tel:${call.phone}`}>{call.phone}</a>{' '}
                    <span className={`pill pill-call-${call.status}`}>{LABEL[call.status] ? t(LABEL[call.status]) : call.status}</span>
                  </p>
                  <p className="muted small">
                    {dateTime(call.created_at)}
                    {typeof call.duration_seconds === 'number' && call.duration_seconds > 0 && (
                      <> · {t('pages.calls.seconds', { count: call.duration_seconds })}</>
                    )}
                    {typeof call.chat_id === 'number' && (
                      <>
                        {' · '}
                        <Link href={`/chats/${call.chat_id}`}>{t('pages.calls.openChat')}</Link>
                      </>
                    )}
                  </p>
                  {call.reason && <p className="error small">{call.reason}</p>}
                  {record && (
                    <p>
                      <audio controls preload="none" src={record} aria-label={t('pages.calls.recordingOf', { phone: call.phone })} />{' '}
                      <a href={record} target="_blank" rel="noopener noreferrer">
                        {t('pages.calls.recording')}
                      </a>
                    </p>
                  )}
                  {call.status !== 'end' && call.status !== 'error' && <CallActions call={call} onChanged={upsert} />}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
