/**
 * The session gate: asks GET /me (the HttpOnly cookie decides), then shows
 * the sign-in form or the live app. Any 401 of the API, or the stream's
 * "sign in again" close, brings the form back. The password-link pages
 * (/set-password, /forgot-password) and the e-mail confirmation page
 * (/confirm-email) are shown whoever is signed in. A session opened with a
 * one-time password (`npm run reset-admin`) shows only the form that chooses
 * the person's own password until that is done; one opened with the password
 * generated at the first start shows the first-run page (e-mail, company
 * name, own password) instead.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, setUnauthorizedHandler, type FirstRun } from '../api';
import { LiveProvider } from '../LiveProvider';
import { navigate, usePath } from '../router';
import type { AgentDto } from '../../../../protocol/agent';
import { ChooseOwnPasswordPage } from './ChooseOwnPasswordPage';
import { ConfirmEmailPage } from './ConfirmEmailPage';
import { FirstRunPage } from './FirstRunPage';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { LoginForm } from './LoginForm';
import { PasswordLinkPage } from './PasswordLinkPage';
import { Shell } from './Shell';
import { stopNotifyingThisDevice } from '../push';
import { followAgentLanguage, t, useLanguage } from '../i18n';

/** Read when the session ends (never kept: the language can change meanwhile). */
const signedOutEverywhere = (): string => t('pages.session.signedOutEverywhere');

type Session =
  | { state: 'checking' }
  | { state: 'signedOut'; notice?: string }
  /** Signed in with a one-time password: only choosing one's own is possible (the one typed, when still known). */
  | { state: 'mustChangePassword'; oneTimePassword?: string }
  | { state: 'signedIn'; me: AgentDto };

export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  // Every screen re-renders in the new language when it changes (texts are read at render, never kept).
  useLanguage();
  const chosenLanguage = session.state === 'signedIn' ? session.me.language : undefined;
  useEffect(() => {
    // The signed-in agent's choice (Profile, or another tab through the stream); null follows the browser.
    if (chosenLanguage !== undefined) void followAgentLanguage(chosenLanguage);
  }, [chosenLanguage]);

  // Signing out everywhere closes this browser's stream too, maybe before the API answers: say why the session ended.
  const leavingEverywhere = useRef(false);
  const sessionLost = useCallback(() => {
    const notice = leavingEverywhere.current ? signedOutEverywhere() : t('pages.session.ended');
    setSession((s) => (s.state === 'signedIn' || s.state === 'mustChangePassword' ? { state: 'signedOut', notice } : s));
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(sessionLost);
    api.me().then(
      (me) => setSession({ state: 'signedIn', me }),
      (err: unknown) => {
        if (err instanceof ApiError && err.code === 'password_change_required') setSession({ state: 'mustChangePassword' });
        else setSession({ state: 'signedOut', notice: err instanceof ApiError && err.status !== 401 ? err.message : undefined });
      },
    );
  }, [sessionLost]);

  const signedIn = useCallback((me: AgentDto) => setSession({ state: 'signedIn', me }), []);
  const mustChangePassword = useCallback((oneTimePassword: string) => setSession({ state: 'mustChangePassword', oneTimePassword }), []);
  // Changes of the signed-in agent (from the stream) never sign a session back in: a sign-out records an
  // agent.updated event that can reach this browser's stream after the sign-out.
  const setMe = useCallback((me: AgentDto) => setSession((s) => (s.state === 'signedIn' && s.me.id === me.id ? { state: 'signedIn', me } : s)), []);

  /** `everywhere`: every session of the person ends (POST /auth/logout-all); a failure is thrown, so the button can say it did not happen. */
  const signOut = useCallback(async (everywhere = false) => {
    if (everywhere) {
      leavingEverywhere.current = true;
      try {
        await api.logoutAll();
      } finally {
        leavingEverywhere.current = false;
      }
      setSession({ state: 'signedOut', notice: signedOutEverywhere() });
      return;
    }
    // Signed out here, this device is no longer notified (the next person to sign in chooses for themselves).
    await stopNotifyingThisDevice().catch(() => {});
    try {
      await api.logout();
    } catch {
      // the session is gone either way
    }
    setSession({ state: 'signedOut' });
  }, []);

  const path = usePath();
  if (path === '/set-password') {
    return (
      <PasswordLinkPage
        onDone={(notice) => {
          navigate('/', true);
          setSession({ state: 'signedOut', notice });
        }}
      />
    );
  }
  if (path === '/confirm-email') {
    return (
      <ConfirmEmailPage
        onDone={(notice) => {
          navigate('/', true);
          // The address changed: this browser's session (if any) goes on, but signing in uses the new one.
          setSession((s) => (s.state === 'signedIn' ? s : { state: 'signedOut', notice: notice || undefined }));
          if (notice) void api.me().then(signedIn, () => undefined);
        }}
      />
    );
  }
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (session.state === 'checking') {
    return (
      <main className="center-page" aria-busy="true">
        <p>{t('common.loading')}</p>
      </main>
    );
  }
  if (session.state === 'signedOut') return <LoginForm notice={session.notice} onSignedIn={signedIn} onMustChangePassword={mustChangePassword} />;
  if (session.state === 'mustChangePassword') {
    return <PasswordGate oneTimePassword={session.oneTimePassword} onChanged={signedIn} onSignOut={() => void signOut()} />;
  }
  return (
    <LiveProvider key={session.me.id} me={session.me} setMe={setMe} signOut={signOut} sessionLost={sessionLost}>
      <Shell />
    </LiveProvider>
  );
}

/**
 * A session that must replace its password first: the first-run page after a
 * sign-in with the password generated at the first start (GET /me/first-run
 * says so), else the page that chooses one's own after a one-time password.
 */
function PasswordGate({ oneTimePassword, onChanged, onSignOut }: { oneTimePassword?: string; onChanged: (me: AgentDto) => void; onSignOut: () => void }) {
  const [firstRun, setFirstRun] = useState<FirstRun | null | 'none'>(null);
  useEffect(() => {
    api.firstRun().then(
      (f) => setFirstRun(f.required ? f : 'none'),
      () => setFirstRun('none'),
    );
  }, []);
  if (firstRun === null) {
    return (
      <main className="center-page" aria-busy="true">
        <p>{t('common.loading')}</p>
      </main>
    );
  }
  if (firstRun !== 'none') return <FirstRunPage state={firstRun} generatedPassword={oneTimePassword} onDone={onChanged} onSignOut={onSignOut} />;
  return <ChooseOwnPasswordPage oneTimePassword={oneTimePassword} onChanged={onChanged} onSignOut={onSignOut} />;
}
