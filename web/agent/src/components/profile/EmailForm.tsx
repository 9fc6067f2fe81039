/**
 * Profile: your own e-mail address (GET/POST /api/v1/me/email). While this
 * server sends mail, a new address gets a link and changes only when the link
 * is opened (24 hours); while mail is only kept (no SMTP_URL), it changes at
 * once. The card says which, and which address waits for its link.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorText, type EmailState } from '../../api';
import { useSession } from '../../context';
import { dateTime } from '../../format';
import { t } from '../../i18n';
import { Phrase } from '../Phrase';
import { ErrorText } from '../admin/ErrorText';

export function EmailForm() {
  const { me, setMe } = useSession();
  const [state, setState] = useState<EmailState | null>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  // The result as a function, so it is said in the language of the moment it is read.
  const [saved, setSaved] = useState<(() => string) | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.emailState().then(setState, (err: unknown) => setError(errorText(err)));
  }, [me.email]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setSaved(null);
    setError(null);
    try {
      const next = await api.changeEmail(email);
      setState(next);
      setEmail('');
      if (next.pending_email) {
        const pending = next.pending_email;
        setSaved(() => () => t('pages.email.linkSent', { email: pending }));
      } else {
        setMe({ ...me, email: next.email });
        setSaved(() => () => t('pages.email.changed', { email: next.email }));
      }
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-email">
      <h2 id="profile-email">{t('pages.email.title')}</h2>
      <p className="muted small">
        <Phrase text={t('pages.email.signInAs')} parts={{ email: <strong>{me.email}</strong> }} />
        {state?.mail_sent === true && ` ${t('pages.email.mailSent')}`}
        {state?.mail_sent === false && ` ${t('pages.email.noMail')}`}
      </p>
      {state?.pending_email && (
        <p className="notice small" role="status">
          {t('pages.email.waiting', { pending: state.pending_email, until: dateTime(state.expires_at ?? 0), email: me.email })}
        </p>
      )}
      <label>
        {t('pages.email.new')}
        <input type="email" name="email" required maxLength={320} autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('pages.email.change')}
        </button>
        <span role="status" className="saved">
          {saved?.()}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
