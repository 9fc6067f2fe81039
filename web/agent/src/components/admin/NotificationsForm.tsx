/**
 * Admin settings: where notification mails go (offline messages, callback
 * requests), one address per line; empty = every active admin. Saved with
 * PUT /api/v1/settings {notifications:{emails}}; the result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import type { Settings } from '../../types';
import { ErrorText } from './ErrorText';

export function NotificationsForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [emails, setEmails] = useState((settings.notifications?.emails ?? []).join('\n'));
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved('');
    setError(null);
    const list = emails
      .split(/[\n,;]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      const next = await api.updateSettings({ notifications: { emails: list } });
      setEmails((next.notifications?.emails ?? []).join('\n'));
      onSaved(next);
      setSaved(
        list.length === 0
          ? 'Saved: notifications go to every active admin.'
          : `Saved: notifications go to ${list.length} address${list.length === 1 ? '' : 'es'}.`,
      );
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form id="notifications" className="card form-grid" onSubmit={submit} aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notification e-mails</h2>
      <label>
        Send offline messages and callback requests to
        <textarea name="notification_emails" rows={3} placeholder="sales@example.com" value={emails} onChange={(e) => setEmails(e.target.value)} />
      </label>
      <p className="muted small">One address per line. Leave it empty to notify every active admin.</p>
      <div className="form-actions">
        <button type="submit" className="primary">
          Save notification e-mails
        </button>
        <span role="status" className="saved">
          {saved}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
