/**
 * The page the link mailed to a new address opens (/confirm-email?token=…),
 * whoever is signed in (POST /api/v1/auth/email-confirmation: the token is
 * the proof). It asks for one click, so a mail scanner opening the link
 * changes nothing; then the address is the person's sign-in name.
 */
import { useState } from 'react';
import { api, ApiError, errorText } from '../api';

function problem(err: unknown): string {
  if (err instanceof ApiError && err.code === 'link_expired')
    return 'This link has expired (it works for 24 hours). Sign in and change your e-mail again on your Profile page: a new link will be mailed.';
  if (err instanceof ApiError && err.code === 'link_invalid')
    return 'This link is no longer valid: it was already used, or a newer change of address replaced it. Use the newest mail, or change your e-mail again on your Profile page.';
  if (err instanceof ApiError && err.code === 'email_taken')
    return 'Another agent signs in with this address now, so it cannot be yours. Choose another one on your Profile page.';
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
      onDone(`Your e-mail address is now ${agent.email}: sign in with it from now on.`);
    } catch (err) {
      setError(problem(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <section className="card login" aria-labelledby="confirm-email-title">
        <h1 id="confirm-email-title">Confirm your new e-mail address</h1>
        <p className="muted">
          You asked to use the address this link was mailed to as your e-mail for Parley: your sign-in name and where Parley writes to you.
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="button" className="primary" disabled={busy || token === ''} onClick={() => void confirm()}>
          {busy ? 'Confirming…' : 'Use this address'}
        </button>
        <button type="button" onClick={() => onDone('')}>
          Go to sign-in
        </button>
      </section>
    </main>
  );
}
