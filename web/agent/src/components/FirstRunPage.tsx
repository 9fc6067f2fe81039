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
import { api, type FirstRun } from '../api';
import { useSaver } from '../hooks/useSaver';
import { setAccountName } from '../accountName';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';
import { AuthForm } from './AuthForm';
import { NewPasswordFields, passwordProblem, type NewPassword } from './NewPasswordFields';

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
  const [form, setForm] = useState({ current: '', email: placeholder ? '' : state.email, company: state.account_name });
  const [next, setNext] = useState<NewPassword>({ password: '', again: '' });
  const saver = useSaver();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = passwordProblem(next) ?? (form.company.trim() === '' ? t('pages.firstRun.companyMissing') : null);
    if (problem) return saver.fail(problem);
    void saver.run(async () => {
      await api.completeFirstRun({
        current_password: generatedPassword ?? form.current,
        email: form.email,
        account_name: form.company,
        new_password: next.password,
      });
      setAccountName(form.company);
      onDone(await api.me());
    });
  };

  return (
    <AuthForm
      id="first-run-title"
      className="first-run"
      title={t('pages.firstRun.title')}
      intro={t('pages.firstRun.intro')}
      saver={saver}
      onSubmit={submit}
      submit={t('pages.firstRun.save')}
      busy={t('common.saving')}
      after={
        <button type="button" onClick={onSignOut}>
          {t('pages.signOut')}
        </button>
      }
    >
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
      <NewPasswordFields id="first-run-password" value={next} onChange={setNext} hint={t('pages.firstRun.passwordHint')} />
    </AuthForm>
  );
}
