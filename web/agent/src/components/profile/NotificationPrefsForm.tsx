/**
 * The agent's own alerts (GET/PUT /api/v1/me/notifications), kept on the
 * server so they follow the person to every browser: the chime and its
 * volume (with a button to hear it), desktop notifications (the browser's
 * permission is asked from the button, a gesture, as browsers require),
 * which events alert, and a mute that silences everything while keeping the
 * other choices. Saved ones take effect at once (alerts.ts); the result
 * shows beside the button. "Notify me on this device" (ThisDevicePush) adds
 * Web Push on this browser.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { configureAlerts, notificationPermission, playChime, requestNotifications } from '../../alerts';
import { api, errorText } from '../../api';
import { t } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { NotificationPrefsDto } from '../../../../../protocol/agent';
import { ErrorText } from '../admin/ErrorText';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from '../admin/SaveResult';
import { ThisDevicePush } from './ThisDevicePush';

const EVENTS: Array<[keyof NotificationPrefsDto['events'], TextKey]> = [
  ['new_chat', 'pages.alertPrefs.newChat'],
  ['new_message', 'pages.alertPrefs.newMessage'],
  ['transfer', 'pages.alertPrefs.transfer'],
];

const PERMISSION_TEXT: Record<'granted' | 'denied' | 'default' | 'unsupported', TextKey> = {
  granted: 'pages.alertPrefs.granted',
  denied: 'pages.alertPrefs.denied',
  default: 'pages.alertPrefs.notAsked',
  unsupported: 'pages.alertPrefs.unsupported',
};

export function NotificationPrefsForm({ onDevicesChanged }: { onDevicesChanged?: () => void } = {}) {
  const [prefs, setPrefs] = useState<NotificationPrefsDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [permission, setPermission] = useState(notificationPermission());
  const saver = useSaver();

  useEffect(() => {
    api.notificationPrefs().then(setPrefs, (err: unknown) => setLoadError(errorText(err)));
  }, []);

  if (!prefs) {
    return (
      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">{t('pages.alertPrefs.title')}</h2>
        {loadError ? <ErrorText error={loadError} /> : <p className="muted">{t('common.loading')}</p>}
      </section>
    );
  }

  const change = (next: Partial<NotificationPrefsDto>) => {
    saver.clear();
    setPrefs({ ...prefs, ...next });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => {
        const saved = await api.updateNotificationPrefs(prefs);
        setPrefs(saved);
        configureAlerts({ prefs: saved });
        return saved;
      },
      (saved) => (saved.muted ? t('pages.alertPrefs.savedMuted') : t('pages.profile.saved')),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="alerts-title">
      <h2 id="alerts-title">{t('pages.alertPrefs.title')}</h2>
      <label className="check">
        <input type="checkbox" name="muted" checked={prefs.muted} onChange={(e) => change({ muted: e.target.checked })} />
        {t('pages.alertPrefs.mute')}
      </label>
      <fieldset disabled={prefs.muted}>
        <legend>{t('pages.alertPrefs.when')}</legend>
        {EVENTS.map(([key, label]) => (
          <label key={key} className="check">
            <input
              type="checkbox"
              name={`event_${key}`}
              checked={prefs.events[key]}
              onChange={(e) => change({ events: { ...prefs.events, [key]: e.target.checked } })}
            />
            {t(label)}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={prefs.muted}>
        <legend>{t('pages.alertPrefs.how')}</legend>
        <label className="check">
          <input type="checkbox" name="sound" checked={prefs.sound} onChange={(e) => change({ sound: e.target.checked })} />
          {t('pages.alertPrefs.sound')}
        </label>
        <label>
          {t('pages.alertPrefs.volume')}
          <span className="row">
            <input
              type="range"
              name="volume"
              min={0}
              max={100}
              step={5}
              value={prefs.volume}
              disabled={!prefs.sound}
              onChange={(e) => change({ volume: Number(e.target.value) })}
            />
            <span aria-hidden="true">{prefs.volume}</span>
            <button type="button" disabled={!prefs.sound} onClick={() => playChime(prefs.volume)}>
              {t('pages.alertPrefs.play')}
            </button>
          </span>
        </label>
        <label className="check">
          <input type="checkbox" name="desktop" checked={prefs.desktop} onChange={(e) => change({ desktop: e.target.checked })} />
          {t('pages.alertPrefs.desktop')}
        </label>
        <p className="muted small">
          {t(PERMISSION_TEXT[permission])}{' '}
          {permission === 'default' && (
            <button type="button" onClick={async () => setPermission(await requestNotifications())}>
              {t('pages.alertPrefs.allow')}
            </button>
          )}
        </p>
        <ThisDevicePush onChange={onDevicesChanged} />
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('pages.alertPrefs.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
