/**
 * The devices the agent is notified on (GET /api/v1/me/push-subscriptions),
 * on the Profile page: each with its browser, push service and last
 * notification, and a Remove button (DELETE /api/v1/me/push-subscriptions/:id).
 * This device is marked, and subscribes from the alerts above.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, errorText, type PushDevice } from '../../api';
import { formatDateTime, phrase, t, type Phrase } from '../../i18n';
import { currentPushSubscription } from '../../push';
import { ErrorText } from '../admin/ErrorText';

/** A short name for a User-Agent: browser on system. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return t('pages.devices.aBrowser');
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : t('pages.devices.aBrowser');
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? t('pages.devices.browserOn', { browser, system }) : browser;
}

export function DevicesCard({ version }: { version: number }) {
  const [devices, setDevices] = useState<PushDevice[] | null>(null);
  const [here, setHere] = useState<string | null>(null);
  // Said at render (Phrase), so an error shown before a language switch follows it.
  const [error, setError] = useState<Phrase | null>(null);

  const load = useCallback(() => {
    api.pushDevices().then(
      (r) => setDevices(r.subscriptions),
      (err: unknown) => setError(phrase(() => errorText(err))),
    );
    void currentPushSubscription().then((s) => setHere(s?.endpoint ?? null));
  }, []);
  useEffect(load, [load, version]);

  const remove = async (id: number) => {
    setError(null);
    try {
      await api.removePushDeviceById(id);
      load();
    } catch (err) {
      setError(phrase(() => t('pages.devices.notRemoved', { error: errorText(err) })));
    }
  };

  return (
    <section className="card form-grid" aria-labelledby="profile-devices">
      <h2 id="profile-devices">{t('pages.devices.title')}</h2>
      {devices === null ? (
        error ? null : (
          <p className="muted">{t('common.loading')}</p>
        )
      ) : devices.length === 0 ? (
        <p className="muted small">{t('pages.devices.none')}</p>
      ) : (
        <ul className="devices">
          {devices.map((d) => (
            <li key={d.id}>
              <span>
                <strong>{deviceName(d.user_agent)}</strong>
                {d.endpoint === here && ` ${t('pages.devices.thisOne')}`}
                <span className="muted small">
                  {' · '}
                  {t('pages.devices.via', { service: d.service, added: formatDateTime(new Date(d.created_at).getTime(), { dateStyle: 'short' }) })}
                  {d.last_pushed_at
                    ? ` · ${t('pages.devices.lastNotified', { time: formatDateTime(new Date(d.last_pushed_at).getTime(), { dateStyle: 'short', timeStyle: 'medium' }) })}`
                    : ''}
                </span>
              </span>
              <button type="button" onClick={() => void remove(d.id)} aria-label={t('pages.devices.removeOne', { name: deviceName(d.user_agent) })}>
                {t('common.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorText error={error?.say() ?? null} />
    </section>
  );
}
