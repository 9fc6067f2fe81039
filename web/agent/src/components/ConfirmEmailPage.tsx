/**
 * The page the link mailed to a new address opens (/confirm-email?token=…),
 * whoever is signed in (POST /api/v1/auth/email-confirmation: the token is
 * the proof). It asks for one click, so a mail scanner opening the link
 * changes nothing; then the address is the person's sign-in name.
 */
import { useState } from 'react';
import { api, ApiError, errorText } from '../api';
import { t } from '../i18n';

function problem(err: unknown): string {
  if (err instanceof ApiError && err.code === 'link_expired') return t('pages.confirmEmail.expired');
  if (err instanceof ApiError && err.code === 'link_invalid') return t('pages.confirmEmail.invalid');
  if (err instanceof ApiError && err.code === 'email_taken') return t('pages.confirmEmail.taken');
  return errorText(err);
}

export function ConfirmEmailPage({ onDone }: { onDone: (notice: string) => void }) {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const agent = await api.confirmEmail(token);
      onDone(t('pages.confirmEmail.done', { email: agent.email }));
    } catch (err) {
      setError(problem(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <section className="card login" aria-labelledby="confirm-email-title">
        <h1 id="confirm-email-title">{t('pages.confirmEmail.title')}</h1>
        <p className="muted">{t('pages.confirmEmail.intro')}</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="button" className="primary" disabled={busy || token === ''} onClick={() => void confirm()}>
          {busy ? t('pages.confirmEmail.confirming') : t('pages.confirmEmail.use')}
        </button>
        <button type="button" onClick={() => onDone('')}>
          {t('pages.confirmEmail.toSignIn')}
        </button>
      </section>
    </main>
  );
}
