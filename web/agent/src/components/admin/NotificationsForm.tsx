/**
 * Admin settings: notification mails. Where they go (offline messages,
 * callback requests, missed chats), one address per line, empty = every
 * active admin; after how many minutes a chat nobody accepted is mailed as
 * missed (empty = never); the archive address that receives every finished
 * chat's transcript (empty = none). Saved with PUT /api/v1/settings
 * {notifications}; the result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import type { Settings } from '../../types';
import { ErrorText } from './ErrorText';

function summary(n: NonNullable<Settings['notifications']>): string {
  const to = n.emails.length === 0 ? 'every active admin' : `${n.emails.length} address${n.emails.length === 1 ? '' : 'es'}`;
  const missed = n.missed_chat_minutes === null ? 'no missed-chat mail' : `missed chats after ${n.missed_chat_minutes} min`;
  const archive = n.archive_email === null ? 'no archive copy' : `archive copies to ${n.archive_email}`;
  return `Saved: notifications go to ${to}; ${missed}; ${archive}.`;
}

export function NotificationsForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const current = settings.notifications;
  const [emails, setEmails] = useState((current?.emails ?? []).join('\n'));
  const [minutes, setMinutes] = useState(current?.missed_chat_minutes?.toString() ?? '');
  const [archive, setArchive] = useState(current?.archive_email ?? '');
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
    const after = minutes.trim() === '' ? null : Number(minutes);
    try {
      const next = await api.updateSettings({ notifications: { emails: list, missed_chat_minutes: after, archive_email: archive.trim() || null } });
      const n = next.notifications ?? { emails: [], missed_chat_minutes: null, archive_email: null };
      setEmails(n.emails.join('\n'));
      setMinutes(n.missed_chat_minutes?.toString() ?? '');
      setArchive(n.archive_email ?? '');
      onSaved(next);
      setSaved(summary(n));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form id="notifications" className="card form-grid" onSubmit={submit} aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notification e-mails</h2>
      <label>
        Send offline messages and callback requests to
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
        One address per line. Leave it empty to notify every active admin.
      </p>
      <label>
        Mail a chat nobody accepted after (minutes)
        <input
          type="number"
          name="missed_chat_minutes"
          min={1}
          max={1440}
          placeholder="never"
          aria-describedby="missed-chat-hint"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
      </label>
      <p id="missed-chat-hint" className="muted small">
        A waiting chat is mailed once to the addresses above, with what the visitor wrote. Leave it empty for no such mail.
      </p>
      <label>
        Archive address
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
        Every finished chat&apos;s transcript is mailed there. Leave it empty for none.
      </p>
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
