/**
 * "Forgot password?" (/forgot-password): asks for the sign-in e-mail and
 * sends a reset link (1 hour). The answer is the same whether or not the
 * address has an account, so the page never says which.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api.forgotPassword(email.trim());
      setSent(res.message);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login" onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p className="muted">Type the e-mail you sign in with; we mail you a link to choose a new password.</p>
        <label>
          E-mail
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {sent && (
          <p className="saved" role="status">
            {sent}
          </p>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send me a link'}
        </button>
        <p>
          <a href="/">Back to sign-in</a>
        </p>
      </form>
    </main>
  );
}
