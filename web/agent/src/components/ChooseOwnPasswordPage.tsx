/**
 * Shown right after a sign-in with a one-time password (printed on the server
 * by `npm run reset-admin`), and whenever the API answers
 * `password_change_required`: until the person chooses their own password
 * (PUT /api/v1/me/password, the one-time password as the current one) the
 * server refuses everything else, so this is the whole screen. The one-time
 * password just typed is kept in memory for the change; after a reload it is
 * asked for again. Signing out stays possible.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';

export function ChooseOwnPasswordPage({
  oneTimePassword,
  onChanged,
  onSignOut,
}: {
  /** The one-time password of this sign-in, when the app still has it. */
  oneTimePassword?: string;
  onChanged: (me: AgentDto) => void;
  onSignOut: () => void;
}) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (password !== repeat) return setError(t('pages.password.differ'));
    if (password.length < 8) return setError(t('pages.password.tooShort'));
    setBusy(true);
    try {
      await api.changePassword(oneTimePassword ?? current, password);
      onChanged(await api.me());
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login" onSubmit={submit} aria-labelledby="own-password-title">
        <h1 id="own-password-title">{t('pages.ownPassword.title')}</h1>
        <p className="muted">{t('pages.ownPassword.intro')}</p>
        {oneTimePassword === undefined && (
          <label>
            {t('pages.ownPassword.oneTime')}
            <input
              type="password"
              name="current_password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          </label>
        )}
        <label>
          {t('pages.password.new')}
          <input
            type="password"
            name="new_password"
            autoComplete="new-password"
            required
            minLength={8}
            aria-describedby="own-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <span id="own-password-hint" className="muted small">
          {t('pages.password.hint')}
        </span>
        <label>
          {t('pages.password.again')}
          <input type="password" name="new_password_again" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('common.saving') : t('pages.ownPassword.save')}
        </button>
        <button type="button" onClick={onSignOut}>
          {t('pages.signOut')}
        </button>
      </form>
    </main>
  );
}
