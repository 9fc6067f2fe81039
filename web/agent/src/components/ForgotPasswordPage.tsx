/**
 * "Forgot password?" (/forgot-password): asks for the sign-in e-mail and
 * sends a reset link (1 hour). The answer is the same whether or not the
 * address has an account, so the page never says which.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { t } from '../i18n';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The server's answer is the same for every address; it is said in the page's language.
      await api.forgotPassword(email.trim());
      setSent(true);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login" onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">{t('pages.forgot.title')}</h1>
        <p className="muted">{t('pages.forgot.intro')}</p>
        <label>
          {t('common.email')}
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {sent && (
          <p className="saved" role="status">
            {t('pages.forgot.sent')}
          </p>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('pages.forgot.sending') : t('pages.forgot.send')}
        </button>
        <p>
          <a href="/">{t('pages.forgot.back')}</a>
        </p>
      </form>
    </main>
  );
}
