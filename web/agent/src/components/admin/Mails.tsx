/**
 * Admin: the account's mails (GET /api/v1/mails), newest first — recipient,
 * subject, status, and the text part on demand. Without an SMTP server
 * every mail is `kept` (composed, not sent): the page says so, so the flow
 * is visible and testable with no mail server at all.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { Mail } from '../../types';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';

const PAGE = 50;

const TYPES: Record<string, string> = {
  offline_message: 'Offline message',
  callback_request: 'Callback request',
  invitation: 'Invitation',
  password_reset: 'Password reset',
  missed_chat: 'Missed chat',
  chat_archive: 'Chat archive',
  chat_transcript: 'Transcript for the visitor',
  transcript_confirmation: "Address check for a visitor's transcript",
};

export function Mails() {
  const list = useList<Mail>(() => api.mails({ limit: PAGE }));
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(true);
  // GET /mails/status says whether SMTP_URL is set, so the notice shows even before the first mail.
  const [smtp, setSmtp] = useState<{ smtp: boolean; from: string } | null>(null);
  useEffect(() => {
    api.mailStatus().then(setSmtp, () => setSmtp(null));
  }, []);
  const kept = smtp ? !smtp.smtp : list.items.some((m) => m.status === 'kept');

  const loadMore = async () => {
    const oldest = list.items[list.items.length - 1]?.id;
    try {
      const page = await api.mails({ limit: PAGE, before: oldest });
      list.setItems((all) => [...all, ...page.filter((m) => !all.some((x) => x.id === m.id))]);
      setMore(page.length === PAGE);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" aria-labelledby="mail-title">
      <h1 id="mail-title">Mail</h1>
      <div className="row">
        <p className="muted grow">Every mail Parley composed for this account: notifications, invitations and password resets.</p>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      {smtp?.smtp && <p className="muted small">Mails are sent from {smtp.from}.</p>}
      {kept && (
        <p className="notice">
          Mail is not being sent: this server has no SMTP_URL, so mails are kept here instead. Set SMTP_URL (and MAIL_FROM) to send them; see the configuration
          guide.
        </p>
      )}
      <ErrorText error={error ?? list.error} />
      <ul className="cards mails">
        {list.items.map((m) => (
          <li key={m.id} className="card">
            <div className="row">
              <strong className="grow">{m.subject}</strong>
              <span className={`pill pill-${m.status}`}>{m.status}</span>
            </div>
            <p className="muted small">
              {TYPES[m.type] ?? m.type} · to <span className="break">{m.to}</span>
              {m.reply_to && <> · reply to {m.reply_to}</>} · {dateTime(m.created_at)}
              {m.status !== 'kept' && (
                <>
                  {' '}
                  · {m.attempts} attempt{m.attempts === 1 ? '' : 's'}
                </>
              )}
            </p>
            {m.last_error && <p className="error small">{m.last_error}</p>}
            <details>
              <summary>Show the mail</summary>
              <pre className="mail-body">{m.text}</pre>
            </details>
          </li>
        ))}
      </ul>
      {list.items.length === 0 && !list.loading && !list.error && (
        <p className="muted">
          No mail yet. Offline messages, callback requests, missed chats, chat archives, invitations and password resets will appear here.
        </p>
      )}
      {more && list.items.length >= PAGE && (
        <button type="button" onClick={() => void loadMore()}>
          Load older
        </button>
      )}
    </section>
  );
}
