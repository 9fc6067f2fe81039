/**
 * Admin: the company's name (CompanyNameForm), Integration settings for developers (spec): event webhook URL (with
 * its pause and the event types given up on), the event types it gets, Safe
 * URL, the webhook signing secret (read-only, with rotation), callbacks, the
 * notification e-mail addresses, agents' presence (the status of agents who
 * never chose one, the idle delay) and the widget's triggers (invitation
 * rules). Each form shows its own result beside its button (SaveResult.tsx).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import { useSession } from '../../context';
import { t } from '../../i18n';
import type { SettingsDto } from '../../../../../protocol/agent';
import { CallbackForm } from './CallbackForm';
import { CompanyNameForm } from './CompanyNameForm';
import { ConfirmButton } from './ConfirmButton';
import { CopyField } from './CopyField';
import { ErrorText } from './ErrorText';
import { GivenUpEventTypes } from './GivenUpEventTypes';
import { EventTypesForm } from './EventTypesForm';
import { NotificationsForm } from './NotificationsForm';
import { PresenceForm } from './PresenceForm';
import { RetentionForm } from './RetentionForm';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';
import { TriggersForm } from './TriggersForm';

export function SettingsPage() {
  const { setSafeUrl } = useSession();
  const [settings, setSettings] = useState<SettingsDto | null>(null);
  const [eventUrl, setEventUrl] = useState('');
  const [safeUrl, setSafe] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resumed, setResumed] = useState(0);
  const urls = useSaver();
  const secret = useSaver();
  const paused = useSaver();

  const show = (s: SettingsDto): SettingsDto => {
    setSettings(s);
    setEventUrl(s.event_webhook_url ?? '');
    setSafe(s.safe_url ?? '');
    setSafeUrl(s.safe_url);
    return s;
  };

  useEffect(() => {
    api.settings().then(show, (err: unknown) => setError(errorText(err)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads once, when the page opens
  }, []);

  const saveUrls = (e: FormEvent) => {
    e.preventDefault();
    void urls.run(
      async () => show(await api.updateSettings({ event_webhook_url: eventUrl.trim() || null, safe_url: safeUrl.trim() || null })),
      t('admin.settings.integrationSaved'),
    );
  };

  if (!settings) {
    return (
      <section className="page" aria-labelledby="settings-title">
        <h1 id="settings-title">{t('admin.settings.title')}</h1>
        {error ? <ErrorText error={error} /> : <p className="muted">{t('common.loading')}</p>}
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('admin.settings.title')}</h1>
      {settings.webhooks_paused_reason && (
        <div className="card paused" role="alert">
          <p>{t('admin.settings.paused', { reason: settings.webhooks_paused_reason })}</p>
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={paused.busy}
              onClick={() =>
                void paused.run(async () => {
                  show(await api.resumeWebhooks());
                  setResumed((n) => n + 1);
                }, t('admin.settings.resumed'))
              }
            >
              {t('admin.settings.resume')}
            </button>
            <SaveResult saver={paused} />
          </div>
        </div>
      )}
      {paused.saved && (
        <p role="status" className="saved card">
          {paused.saved}
        </p>
      )}
      <CompanyNameForm settings={settings} onSaved={show} />
      {/* Reloaded after resuming: resuming event webhooks sends the given-up types again too. */}
      <GivenUpEventTypes key={resumed} />
      <form className="card form-grid" onSubmit={saveUrls} aria-labelledby="integration-title">
        <h2 id="integration-title">{t('admin.settings.integrationTitle')}</h2>
        <label htmlFor="event-webhook-url">{t('admin.settings.eventWebhookUrl')}</label>
        <input
          id="event-webhook-url"
          name="event_webhook_url"
          type="url"
          placeholder="https://crm.example.com/parley-events"
          value={eventUrl}
          onChange={(e) => setEventUrl(e.target.value)}
        />
        <p className="muted small">{t('admin.settings.eventWebhookHint')}</p>
        <label htmlFor="safe-url">{t('admin.settings.safeUrl')}</label>
        <input id="safe-url" name="safe_url" type="url" placeholder="https://www.example.com" value={safeUrl} onChange={(e) => setSafe(e.target.value)} />
        <p className="muted small">{t('admin.settings.safeUrlHint')}</p>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={urls.busy}>
            {t('common.save')}
          </button>
          <SaveResult saver={urls} />
        </div>
      </form>
      <EventTypesForm settings={settings} onSaved={show} />
      <section className="card" aria-labelledby="secret-title">
        <h2 id="secret-title">{t('admin.settings.secretTitle')}</h2>
        <p className="muted small">{t('admin.settings.secretHint')}</p>
        <CopyField label={t('admin.settings.secret')} value={settings.webhook_secret} />
        <div className="form-actions">
          <ConfirmButton
            label={t('admin.settings.rotate')}
            question={t('admin.settings.rotateQuestion')}
            onConfirm={async () => {
              await secret.run(async () => show(await api.rotateWebhookSecret()), t('admin.settings.rotated'));
            }}
          />
          <SaveResult saver={secret} />
        </div>
      </section>
      <CallbackForm
        callback={settings.callback}
        onSave={async (cb) => {
          const next = await api.updateSettings({ callback: cb });
          show(next);
          return next;
        }}
      />
      <NotificationsForm settings={settings} onSaved={show} />
      <PresenceForm settings={settings} onSaved={show} />
      <RetentionForm settings={settings} onSaved={show} />
      <TriggersForm rules={settings.rules} onSaved={show} />
    </section>
  );
}
