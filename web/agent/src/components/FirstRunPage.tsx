/**
 * The first sign-in with the password generated at the first start (printed
 * in the server's log): before anything else the owner gives their real
 * e-mail (it replaces admin@localhost.localdomain, so "Forgot password?" and
 * notification mails reach them), the company's name (what mails, the
 * widget and the header say) and their own password (POST /api/v1/me/first-run,
 * all three together). The generated password typed at sign-in is kept in
 * memory for this; after a reload it is asked for again. Signing out stays possible.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText, type FirstRun } from '../api';
import { setAccountName } from '../accountName';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';

export function FirstRunPage({
  state,
  generatedPassword,
  onDone,
  onSignOut,
}: {
  state: FirstRun;
  generatedPassword?: string;
  onDone: (me: AgentDto) => void;
  onSignOut: () => void;
}) {
  const placeholder = state.email.endsWith('.localdomain');
  const [form, setForm] = useState({ current: '', email: placeholder ? '' : state.email, company: state.account_name, password: '', repeat: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (form.password !== form.repeat) return setError(t('pages.password.differ'));
    if (form.password.length < 8) return setError(t('pages.password.tooShort'));
    if (form.company.trim() === '') return setError(t('pages.firstRun.companyMissing'));
    setBusy(true);
    try {
      await api.completeFirstRun({
        current_password: generatedPassword ?? form.current,
        email: form.email,
        account_name: form.company,
        new_password: form.password,
      });
      setAccountName(form.company);
      onDone(await api.me());
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login first-run" onSubmit={submit} aria-labelledby="first-run-title">
        <h1 id="first-run-title">{t('pages.firstRun.title')}</h1>
        <p className="muted">{t('pages.firstRun.intro')}</p>
        {generatedPassword === undefined && (
          <label>
            {t('pages.firstRun.printedPassword')}
            <input type="password" name="current_password" autoComplete="current-password" required value={form.current} onChange={set('current')} />
          </label>
        )}
        <label>
          {t('pages.firstRun.email')}
          <input
            type="email"
            name="email"
            required
            maxLength={320}
            autoComplete="email"
            placeholder="you@your-company.com"
            aria-describedby="first-run-email-hint"
            value={form.email}
            onChange={set('email')}
          />
        </label>
        <span id="first-run-email-hint" className="muted small">
          {placeholder ? t('pages.firstRun.emailHintReplacing', { email: state.email }) : t('pages.firstRun.emailHint')}
        </span>
        <label>
          {t('pages.firstRun.company')}
          <input
            name="account_name"
            required
            maxLength={100}
            autoComplete="organization"
            placeholder={t('pages.firstRun.companyExample')}
            aria-describedby="first-run-company-hint"
            value={form.company}
            onChange={set('company')}
          />
        </label>
        <span id="first-run-company-hint" className="muted small">
          {t('pages.firstRun.companyHint')}
        </span>
        <label>
          {t('pages.password.new')}
          <input
            type="password"
            name="new_password"
            autoComplete="new-password"
            required
            minLength={8}
            aria-describedby="first-run-password-hint"
            value={form.password}
            onChange={set('password')}
          />
        </label>
        <span id="first-run-password-hint" className="muted small">
          {t('pages.firstRun.passwordHint')}
        </span>
        <label>
          {t('pages.password.again')}
          <input type="password" name="new_password_again" autoComplete="new-password" required value={form.repeat} onChange={set('repeat')} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('common.saving') : t('pages.firstRun.save')}
        </button>
        <button type="button" onClick={onSignOut}>
          {t('pages.signOut')}
        </button>
      </form>
    </main>
  );
}
