/**
 * Admin: the account's mails (GET /api/v1/mails), newest first — recipient,
 * subject, status, and the text part on demand. Without an SMTP server
 * every mail is `kept` (composed, not sent): the page says so, so the flow
 * is visible and testable with no mail server at all. A kept invitation or
 * password reset offers its link to copy and hand over by hand (KeptLink:
 * POST /api/v1/mails/:id/link), since no mail will carry it.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { Mail } from '../../types';
import { useList } from '../useList';
import { CopyField } from './CopyField';
import { ErrorText } from './ErrorText';

const LINK_TYPES = new Set(['invitation', 'password_reset']);

/** A kept invitation's (or reset's) link: made when asked, shown once, to give to the person yourself. */
function KeptLink({ mail }: { mail: Mail }) {
  const [link, setLink] = useState<{ url: string; expires_at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    setError(null);
    try {
      setLink(await api.mailLink(mail.id));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const what = mail.type === 'invitation' ? 'invitation' : 'password-reset';
  return (
    <div className="kept-link">
      {link ? (
        <>
          <CopyField label={`Link for ${mail.to}`} value={link.url} />
          <p className="muted small">
            Give it to {mail.to} yourself (in person, by phone or your own mail). It works once, until {dateTime(link.expires_at)}. Making it again ends this
            copy.
          </p>
        </>
      ) : (
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void make()}>
            Copy the {what} link
          </button>
          <span className="muted small">This mail was not sent: make its link here and hand it over.</span>
        </div>
      )}
      <ErrorText error={error} />
    </div>
  );
}

const PAGE = 50;

const TYPES: Record<string, string> = {
  offline_message: 'Offline message',
  callback_request: 'Callback request',
  invitation: 'Invitation',
  email_change: 'New e-mail address check',
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
            {m.status === 'kept' && LINK_TYPES.has(m.type) && <KeptLink mail={m} />}
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
