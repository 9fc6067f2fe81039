/**
 * Admin: the event types Parley gave up sending (their delivery failed the
 * whole retry schedule while the receiver answered other event types), each
 * with the receiver's answer and how many events were not sent since, and a
 * button that sends the type again. Shown on the Settings page and the
 * Delivery log; nothing is shown while every type is being sent.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { formatDateTime, t, tn } from '../../i18n';
import type { GivenUpEventTypeDto } from '../../../../../protocol/agent';
import { ErrorText } from './ErrorText';
import { fillIn } from './fillIn';

export function GivenUpEventTypes() {
  const [types, setTypes] = useState<GivenUpEventTypeDto[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');

  useEffect(() => {
    api.givenUpEventTypes().then(setTypes, (err: unknown) => setError(errorText(err)));
  }, []);

  const resume = async (eventType: string) => {
    setError(null);
    setSaved('');
    try {
      setTypes(await api.resumeEventType(eventType));
      setSaved(t('admin.givenUp.resumed', { type: eventType }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (types.length === 0 && !error && !saved) return null;
  return (
    <section className="card paused" aria-labelledby="given-up-title">
      <h2 id="given-up-title">{t('admin.givenUp.title')}</h2>
      <p role="status" className="saved">
        {saved}
      </p>
      <ErrorText error={error} />
      {types.length > 0 && <p className="muted small">{t('admin.givenUp.hint')}</p>}
      <ul className="plain given-up">
        {types.map((g) => (
          <li key={g.event_type}>
            <p>
              {fillIn(
                g.skipped > 0
                  ? tn('admin.givenUp.lineSkipped', g.skipped, { when: formatDateTime(g.given_up_at) })
                  : t('admin.givenUp.line', { when: formatDateTime(g.given_up_at) }),
                { type: <strong>{g.event_type}</strong>, url: <span className="break">{g.url}</span> },
              )}
            </p>
            <p className="small break">
              {t('admin.givenUp.answered', { answer: g.status_code !== null ? `HTTP ${g.status_code}` : t('admin.givenUp.nothing') })}
              {g.response ? (
                <>
                  {' '}
                  <code dir="ltr">{g.response}</code>
                </>
              ) : null}
              {g.error && g.error !== `HTTP ${g.status_code}` && <span className="muted"> ({g.error})</span>}
            </p>
            <button type="button" onClick={() => void resume(g.event_type)} aria-label={t('admin.givenUp.resumeLabel', { type: g.event_type })}>
              {t('admin.givenUp.resume')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
