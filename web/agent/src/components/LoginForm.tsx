/**
 * The sign-in form: e-mail and password → POST /api/v1/auth/login (which sets
 * the session cookies). A one-time password signs in to the screen that
 * makes the person choose their own (ChooseOwnPasswordPage).
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';

export function LoginForm({
  notice,
  onSignedIn,
  onMustChangePassword,
}: {
  notice?: string;
  onSignedIn: (agent: AgentDto) => void;
  /** Signed in with a one-time password (the one typed): the person must choose their own first. */
  onMustChangePassword: (oneTimePassword: string) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { agent, must_change_password } = await api.login(email.trim(), password);
      if (must_change_password) onMustChangePassword(password);
      else onSignedIn(agent);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">{t('pages.login.title')}</h1>
        {notice && <p className="notice">{notice}</p>}
        <label>
          {t('common.email')}
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t('common.password')}
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('pages.login.signingIn') : t('pages.login.signIn')}
        </button>
        <p>
          <a href="/forgot-password">{t('pages.login.forgot')}</a>
        </p>
      </form>
    </main>
  );
}
