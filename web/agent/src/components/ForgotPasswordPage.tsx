/**
 * "Forgot password?" (/forgot-password): asks for the sign-in e-mail and
 * sends a reset link (1 hour). The answer is the same whether or not the
 * address has an account, so the page never says which.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useSaver } from '../hooks/useSaver';
import { t } from '../i18n';
import { AuthForm } from './AuthForm';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The server's answer is the same for every address; it is said in the page's language.
    void saver.run(() => api.forgotPassword(email.trim()), t('pages.forgot.sent'));
  };

  return (
    <AuthForm
      id="forgot-title"
      title={t('pages.forgot.title')}
      intro={t('pages.forgot.intro')}
      saver={saver}
      onSubmit={submit}
      submit={t('pages.forgot.send')}
      busy={t('pages.forgot.sending')}
      after={
        <p>
          <a href="/">{t('pages.forgot.back')}</a>
        </p>
      }
    >
      <label>
        {t('common.email')}
        <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
    </AuthForm>
  );
}
