/**
 * The page a password link opens (/set-password?token=…), before anyone is
 * signed in: it reads the link (whose invitation or reset it is), lets the
 * person choose a password, and sends them to sign in. A used, replaced or
 * expired link says so and what to do.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorText, type PasswordLink } from '../api';
import { dateTime } from '../format';
import { useSaver } from '../hooks/useSaver';
import { t } from '../i18n';
import { ErrorText } from './admin/ErrorText';
import { NewPasswordFields, passwordProblem, type NewPassword } from './NewPasswordFields';
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
  const [next, setNext] = useState<NewPassword>({ password: '', again: '' });
  const saver = useSaver();

  useEffect(() => {
    api.passwordLink(token).then(
      (link) => setState({ step: 'form', link }),
      (err: unknown) => setState({ step: 'bad', message: linkProblem(err) }),
    );
  }, [token]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (state.step !== 'form') return;
    const problem = passwordProblem(next);
    if (problem) return saver.fail(problem);
    void saver.run(async () => {
      try {
        await api.setPassword(token, next.password);
        setState({ step: 'done', link: state.link });
      } catch (err) {
        // A link used or replaced meanwhile: the page says so instead of the form.
        if (!(err instanceof ApiError && (err.code === 'link_expired' || err.code === 'link_invalid'))) throw err;
        setState({ step: 'bad', message: linkProblem(err) });
      }
    });
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
            <NewPasswordFields id="link-password" value={next} onChange={setNext} hint={t('pages.password.hint')} />
            <ErrorText error={saver.error} />
            <button type="submit" className="primary" disabled={saver.busy}>
              {saver.busy ? t('common.saving') : t('pages.passwordLink.set')}
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
