/**
 * Admin settings: notification mails. Where they go (offline messages,
 * callback requests, missed chats), one address per line, empty = every
 * active admin; after how many minutes a chat nobody accepted is mailed as
 * missed (empty = never); the archive address that receives every finished
 * chat's transcript (empty = none). Saved with PUT /api/v1/settings
 * {notifications}; the result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t, tn } from '../../i18n';
import type { SettingsDto } from '../../../../../protocol/agent';
import { SaveResult } from './SaveResult';

/** The saved settings in one sentence; its three parts are phrases of their own, put into the sentence's slots. */
function summary(n: NonNullable<SettingsDto['notifications']>): string {
  const to = n.emails.length === 0 ? t('admin.notifications.everyAdmin') : tn('admin.notifications.addresses', n.emails.length);
  const missed =
    n.missed_chat_minutes === null ? t('admin.notifications.noMissed') : t('admin.notifications.missedAfter', { minutes: String(n.missed_chat_minutes) });
  const archive = n.archive_email === null ? t('admin.notifications.noArchive') : t('admin.notifications.archiveTo', { email: n.archive_email });
  return t('admin.notifications.saved', { to, missed, archive });
}

export function NotificationsForm({ settings, onSaved }: { settings: SettingsDto; onSaved: (s: SettingsDto) => void }) {
  const current = settings.notifications;
  const [emails, setEmails] = useState((current?.emails ?? []).join('\n'));
  const [minutes, setMinutes] = useState(current?.missed_chat_minutes?.toString() ?? '');
  const [archive, setArchive] = useState(current?.archive_email ?? '');
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const list = emails
      .split(/[\n,;]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const after = minutes.trim() === '' ? null : Number(minutes);
    void saver.run(async () => {
      const next = await api.updateSettings({ notifications: { emails: list, missed_chat_minutes: after, archive_email: archive.trim() || null } });
      const n = next.notifications ?? { emails: [], missed_chat_minutes: null, archive_email: null };
      setEmails(n.emails.join('\n'));
      setMinutes(n.missed_chat_minutes?.toString() ?? '');
      setArchive(n.archive_email ?? '');
      onSaved(next);
      return n;
    }, summary);
  };

  return (
    <form id="notifications" className="card form-grid" onSubmit={submit} aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('admin.notifications.title')}</h2>
      <label>
        {t('admin.notifications.emails')}
        <textarea
          name="notification_emails"
          rows={3}
          placeholder="sales@example.com"
          aria-describedby="notification-emails-hint"
          value={emails}
          onChange={(e) => setEmails(e.target.value)}
        />
      </label>
      <p id="notification-emails-hint" className="muted small">
        {t('admin.notifications.emailsHint')}
      </p>
      <label>
        {t('admin.notifications.missed')}
        <input
          type="number"
          name="missed_chat_minutes"
          min={1}
          max={1440}
          placeholder={t('admin.never')}
          aria-describedby="missed-chat-hint"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
      </label>
      <p id="missed-chat-hint" className="muted small">
        {t('admin.notifications.missedHint')}
      </p>
      <label>
        {t('admin.notifications.archive')}
        <input
          type="email"
          name="archive_email"
          placeholder="archive@example.com"
          aria-describedby="archive-hint"
          value={archive}
          onChange={(e) => setArchive(e.target.value)}
        />
      </label>
      <p id="archive-hint" className="muted small">
        {t('admin.notifications.archiveHint')}
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.notifications.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
