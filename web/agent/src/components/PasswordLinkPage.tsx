/**
 * The page a password link opens (/set-password?token=…), before anyone is
 * signed in: it reads the link (whose invitation or reset it is), lets the
 * person choose a password, and sends them to sign in. A used, replaced or
 * expired link says so and what to do.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorText, type PasswordLink } from '../api';
import { dateTime } from '../format';

type State = { step: 'checking' } | { step: 'bad'; message: string } | { step: 'form'; link: PasswordLink } | { step: 'done'; link: PasswordLink };

function linkProblem(err: unknown): string {
  if (err instanceof ApiError && err.code === 'link_expired')
    return 'This link has expired. Ask an administrator for a new invitation, or use “Forgot password?” on the sign-in page.';
  if (err instanceof ApiError && err.code === 'link_invalid')
    return 'This link is no longer valid: it was already used, or a newer one replaced it. Use the newest mail, or ask for a new link.';
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
      setError('The two passwords differ; type the same password twice.');
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
        {state.step === 'checking' && <p aria-busy="true">Checking the link…</p>}
        {state.step === 'bad' && (
          <>
            <h1>This link cannot be used</h1>
            <p className="error" role="alert">
              {state.message}
            </p>
            <a href="/">Go to sign-in</a>
          </>
        )}
        {state.step === 'form' && (
          <form onSubmit={submit} aria-labelledby="link-title">
            <h1 id="link-title">{state.link.kind === 'invite' ? `Welcome, ${state.link.name}` : 'Choose a new password'}</h1>
            <p className="muted">
              {state.link.kind === 'invite' ? 'Choose the password you will sign in with' : 'Choose a new password'} as <strong>{state.link.email}</strong>.
              This link works once, until {dateTime(state.link.expires_at)}.
            </p>
            <label>
              New password
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
              The same password again
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
            <p className="muted small">At least 8 characters.</p>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Saving…' : 'Set my password'}
            </button>
          </form>
        )}
        {state.step === 'done' && (
          <>
            <h1>Password set</h1>
            <p className="saved" role="status">
              Your password is set. Sign in with {state.link.email} and your new password.
            </p>
            <button type="button" className="primary" onClick={() => onDone(`Password set for ${state.link.email}; sign in with it.`)}>
              Sign in
            </button>
          </>
        )}
      </div>
    </main>
  );
}
