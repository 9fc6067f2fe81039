/**
 * Profile: your own e-mail address (GET/POST /api/v1/me/email). While this
 * server sends mail, a new address gets a link and changes only when the link
 * is opened (24 hours); while mail is only kept (no SMTP_URL), it changes at
 * once. The card says which, and which address waits for its link.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorText, type EmailState } from '../../api';
import { useApp } from '../../context';
import { dateTime } from '../../format';
import { ErrorText } from '../admin/ErrorText';

export function EmailForm() {
  const { me, setMe } = useApp();
  const [state, setState] = useState<EmailState | null>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.emailState().then(setState, (err: unknown) => setError(errorText(err)));
  }, [me.email]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setSaved('');
    setError(null);
    try {
      const next = await api.changeEmail(email);
      setState(next);
      setEmail('');
      if (next.pending_email) {
        setSaved(`We sent a link to ${next.pending_email}. Open it within 24 hours: your address changes then, not before.`);
      } else {
        setMe({ ...me, email: next.email });
        setSaved(`Your e-mail is now ${next.email}: sign in with it from now on.`);
      }
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-email">
      <h2 id="profile-email">E-mail address</h2>
      <p className="muted small">
        You sign in as <strong>{me.email}</strong>; password links and notification mails go there.
        {state?.mail_sent === true && ' A new address gets a link: it becomes yours when you open that link.'}
        {state?.mail_sent === false && ' This server sends no mail (SMTP_URL is not set), so a new address is yours at once, without a confirmation mail.'}
      </p>
      {state?.pending_email && (
        <p className="notice small" role="status">
          Waiting for you to open the link sent to {state.pending_email} (until {dateTime(state.expires_at ?? 0)}). Until then you still sign in as {me.email}.
        </p>
      )}
      <label>
        New e-mail address
        <input type="email" name="email" required maxLength={320} autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Change e-mail
        </button>
        <span role="status" className="saved">
          {saved}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
