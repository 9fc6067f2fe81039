/**
 * Admin: the account's mails (GET /api/v1/mails), newest first — recipient,
 * subject, status, and the text part on demand. Without an SMTP server
 * every mail is `kept` (composed, not sent): the page says so, so the flow
 * is visible and testable with no mail server at all. A kept invitation or
 * password reset offers its link to copy and hand over by hand (KeptLink:
 * POST /api/v1/mails/:id/link), since no mail will carry it.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { formatDateTime, t, tn } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { MailDto } from '../../../../../protocol/agent';
import { CopyField } from './CopyField';
import { RefreshRow } from './DataTable';
import { ErrorText } from './ErrorText';
import { fillIn } from './fillIn';
import { LoadOlder, usePaged } from './usePaged';

const LINK_TYPES = new Set(['invitation', 'password_reset']);

/** A kept invitation's (or reset's) link: made when asked, shown once, to give to the person yourself. */
function KeptLink({ mail }: { mail: MailDto }) {
  const [link, setLink] = useState<{ url: string; expires_at: number } | null>(null);
  const saver = useSaver();
  const make = () => saver.run(async () => setLink(await api.mailLink(mail.id)));
  return (
    <div className="kept-link">
      {link ? (
        <>
          <CopyField label={t('admin.mail.linkFor', { to: mail.to })} value={link.url} />
          <p className="muted small">{t('admin.mail.linkHint', { to: mail.to, until: formatDateTime(link.expires_at) })}</p>
        </>
      ) : (
        <div className="row">
          <button type="button" disabled={saver.busy} onClick={() => void make()}>
            {mail.type === 'invitation' ? t('admin.mail.copyInvitation') : t('admin.mail.copyReset')}
          </button>
          <span className="muted small">{t('admin.mail.notSent')}</span>
        </div>
      )}
      <ErrorText error={saver.error} />
    </div>
  );
}

const TYPES: Record<string, TextKey> = {
  offline_message: 'admin.mail.type.offline_message',
  callback_request: 'admin.mail.type.callback_request',
  invitation: 'admin.mail.type.invitation',
  email_change: 'admin.mail.type.email_change',
  password_reset: 'admin.mail.type.password_reset',
  missed_chat: 'admin.mail.type.missed_chat',
  chat_archive: 'admin.mail.type.chat_archive',
  chat_transcript: 'admin.mail.type.chat_transcript',
  transcript_confirmation: 'admin.mail.type.transcript_confirmation',
};
/** A mail's status in the reader's words (the pill keeps the status's own class). */
const STATUSES: Record<string, TextKey> = {
  kept: 'admin.mail.status.kept',
  pending: 'admin.deliveries.status.pending',
  delivered: 'admin.deliveries.status.delivered',
  failed: 'admin.deliveries.status.failed',
  paused: 'admin.deliveries.status.paused',
  cancelled: 'admin.deliveries.status.cancelled',
};

export function Mails() {
  const paged = usePaged<MailDto>((page) => api.mails(page));
  const { list } = paged;
  // GET /mails/status says whether SMTP_URL is set, so the notice shows even before the first mail.
  const [smtp, setSmtp] = useState<{ smtp: boolean; from: string } | null>(null);
  useEffect(() => {
    api.mailStatus().then(setSmtp, () => setSmtp(null));
  }, []);
  const kept = smtp ? !smtp.smtp : list.items.some((m) => m.status === 'kept');

  return (
    <section className="page" aria-labelledby="mail-title">
      <h1 id="mail-title">{t('admin.mail.title')}</h1>
      <RefreshRow onRefresh={list.reload}>
        <p className="muted grow">{t('admin.mail.intro')}</p>
      </RefreshRow>
      {smtp?.smtp && <p className="muted small">{t('admin.mail.from', { from: smtp.from })}</p>}
      {kept && <p className="notice">{t('admin.mail.kept')}</p>}
      <ErrorText error={paged.error ?? list.error} />
      <ul className="cards mails">
        {list.items.map((m) => (
          <li key={m.id} className="card">
            <div className="row">
              <strong className="grow">{m.subject}</strong>
              <span className={`pill pill-${m.status}`}>{m.status in STATUSES ? t(STATUSES[m.status]) : m.status}</span>
            </div>
            <p className="muted small">
              {m.type in TYPES ? t(TYPES[m.type]) : m.type} · {fillIn(t('admin.mail.to'), { to: <span className="break">{m.to}</span> })}
              {m.reply_to && <> · {t('admin.mail.replyTo', { to: m.reply_to })}</>} · {formatDateTime(m.created_at)}
              {m.status !== 'kept' && <> · {tn('admin.attempts', m.attempts)}</>}
            </p>
            {m.last_error && <p className="error small">{m.last_error}</p>}
            {m.status === 'kept' && LINK_TYPES.has(m.type) && <KeptLink mail={m} />}
            <details>
              <summary>{t('admin.mail.show')}</summary>
              <pre className="mail-body">{m.text}</pre>
            </details>
          </li>
        ))}
      </ul>
      {list.items.length === 0 && !list.loading && !list.error && <p className="muted">{t('admin.mail.empty')}</p>}
      <LoadOlder paged={paged} />
    </section>
  );
}
