/**
 * Admin: the event types Parley gave up sending (their delivery failed the
 * whole retry schedule while the receiver answered other event types), each
 * with the receiver's answer and how many events were not sent since, and a
 * button that sends the type again. Shown on the Settings page and the
 * Delivery log; nothing is shown while every type is being sent.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { GivenUpEventType } from '../../types';
import { ErrorText } from './ErrorText';

export function GivenUpEventTypes() {
  const [types, setTypes] = useState<GivenUpEventType[]>([]);
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
      setSaved(`${eventType} events are sent again, starting with the next one.`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (types.length === 0 && !error && !saved) return null;
  return (
    <section className="card paused" aria-labelledby="given-up-title">
      <h2 id="given-up-title">Event types not being sent</h2>
      <p role="status" className="saved">
        {saved}
      </p>
      <ErrorText error={error} />
      {types.length > 0 && (
        <p className="muted small">
          The receiver failed every attempt of these event types for more than a day while it accepted the others, so Parley stopped sending them. The other
          event types are sent as usual.
        </p>
      )}
      <ul className="plain given-up">
        {types.map((t) => (
          <li key={t.event_type}>
            <p>
              <strong>{t.event_type}</strong> to <span className="break">{t.url}</span> — given up {dateTime(t.given_up_at)}
              {t.skipped > 0 && `, ${t.skipped} event${t.skipped === 1 ? '' : 's'} not sent since`}
            </p>
            <p className="small break">
              The receiver answered: {t.status_code !== null ? `HTTP ${t.status_code}` : 'nothing'}
              {t.response ? (
                <>
                  {' '}
                  <code>{t.response}</code>
                </>
              ) : null}
              {t.error && t.error !== `HTTP ${t.status_code}` && <span className="muted"> ({t.error})</span>}
            </p>
            <button type="button" onClick={() => void resume(t.event_type)} aria-label={`Send ${t.event_type} events again`}>
              Send again
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
