/**
 * The sign-in form: e-mail and password → POST /api/v1/auth/login (which sets
 * the session cookies). A one-time password signs in to the screen that
 * makes the person choose their own (ChooseOwnPasswordPage).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useSaver } from '../hooks/useSaver';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';
import { AuthForm } from './AuthForm';

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
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(async () => {
      const { agent, must_change_password } = await api.login(email.trim(), password);
      if (must_change_password) onMustChangePassword(password);
      else onSignedIn(agent);
    });
  };

  return (
    <AuthForm
      id="login-title"
      title={t('pages.login.title')}
      saver={saver}
      onSubmit={submit}
      submit={t('pages.login.signIn')}
      busy={t('pages.login.signingIn')}
      after={
        <p>
          <a href="/forgot-password">{t('pages.login.forgot')}</a>
        </p>
      }
    >
      {notice && <p className="notice">{notice}</p>}
      <label>
        {t('common.email')}
        <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        {t('common.password')}
        <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
    </AuthForm>
  );
}
