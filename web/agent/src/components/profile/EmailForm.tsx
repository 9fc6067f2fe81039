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
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from '../admin/SaveResult';

export function EmailForm() {
  const { me, setMe } = useSession();
  const [state, setState] = useState<EmailState | null>(null);
  const [email, setEmail] = useState('');
  const saver = useSaver();
  const { fail } = saver;

  useEffect(() => {
    api.emailState().then(setState, (err: unknown) => fail(errorText(err)));
  }, [me.email, fail]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => {
        const next = await api.changeEmail(email);
        setState(next);
        setEmail('');
        if (!next.pending_email) setMe({ ...me, email: next.email });
        return next;
      },
      (next) => (next.pending_email ? t('pages.email.linkSent', { email: next.pending_email }) : t('pages.email.changed', { email: next.email })),
    );
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
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('pages.email.change')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
