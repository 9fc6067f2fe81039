/**
 * The page a password link opens (/set-password?token=…), before anyone is
 * signed in: it reads the link (whose invitation or reset it is), lets the
 * person choose a password, and sends them to sign in. A used, replaced or
 * expired link says so and what to do.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorText, type PasswordLink } from '../api';
import { dateTime } from '../format';
import { t } from '../i18n';
import { Phrase } from './Phrase';

type State = { step: 'checking' } | { step: 'bad'; message: string } | { step: 'form'; link: PasswordLink } | { step: 'done'; link: PasswordLink };

function linkProblem(err: unknown): string {
  if (err instanceof ApiError && err.code === 'link_expired') return t('pages.passwordLink.expired');
  if (err instanceof ApiError && err.code === 'link_invalid') return t('pages.passwordLink.invalid');
  return errorText(err);
}

export function PasswordLinkPage({ onDone }: { onDone: (notice: string) => void }) {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [state, setState] = useState<State>({ step: 'checking' });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.passwordLink(token).then(
      (link) => setState({ step: 'form', link }),
      (err: unknown) => setState({ step: 'bad', message: linkProblem(err) }),
    );
  }, [token]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.step !== 'form') return;
    if (password !== repeat) {
      setError(t('pages.password.differ'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.setPassword(token, password);
      setState({ step: 'done', link: state.link });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'link_expired' || err.code === 'link_invalid')) setState({ step: 'bad', message: linkProblem(err) });
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <div className="card login">
        {state.step === 'checking' && <p aria-busy="true">{t('pages.passwordLink.checking')}</p>}
        {state.step === 'bad' && (
          <>
            <h1>{t('pages.passwordLink.bad')}</h1>
            <p className="error" role="alert">
              {state.message}
            </p>
            <a href="/">{t('pages.confirmEmail.toSignIn')}</a>
          </>
        )}
        {state.step === 'form' && (
          <form onSubmit={submit} aria-labelledby="link-title">
            <h1 id="link-title">
              {state.link.kind === 'invite' ? t('pages.passwordLink.welcome', { name: state.link.name }) : t('pages.passwordLink.choose')}
            </h1>
            <p className="muted">
              <Phrase
                text={t(state.link.kind === 'invite' ? 'pages.passwordLink.inviteAs' : 'pages.passwordLink.resetAs', {
                  until: dateTime(state.link.expires_at),
                })}
                parts={{ email: <strong>{state.link.email}</strong> }}
              />
            </p>
            <label>
              {t('pages.password.new')}
              <input
                type="password"
                name="password"
                autoComplete="new-password"
                required
                minLength={8}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <label>
              {t('pages.password.again')}
              <input
                type="password"
                name="repeat"
                autoComplete="new-password"
                required
                minLength={8}
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
              />
            </label>
            <p className="muted small">{t('pages.password.hint')}</p>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="primary" disabled={busy}>
              {busy ? t('common.saving') : t('pages.passwordLink.set')}
            </button>
          </form>
        )}
        {state.step === 'done' && (
          <>
            <h1>{t('pages.passwordLink.setTitle')}</h1>
            <p className="saved" role="status">
              {t('pages.passwordLink.setDone', { email: state.link.email })}
            </p>
            <button type="button" className="primary" onClick={() => onDone(t('pages.passwordLink.setNotice', { email: state.link.email }))}>
              {t('pages.login.signIn')}
            </button>
          </>
        )}
      </div>
    </main>
  );
}
