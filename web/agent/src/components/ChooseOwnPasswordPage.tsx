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
import { api } from '../api';
import { useSaver } from '../hooks/useSaver';
import { t } from '../i18n';
import type { AgentDto } from '../../../../protocol/agent';
import { AuthForm } from './AuthForm';
import { NewPasswordFields, passwordProblem, type NewPassword } from './NewPasswordFields';

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
  const [next, setNext] = useState<NewPassword>({ password: '', again: '' });
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = passwordProblem(next);
    if (problem) return saver.fail(problem);
    void saver.run(async () => {
      await api.changePassword(oneTimePassword ?? current, next.password);
      onChanged(await api.me());
    });
  };

  return (
    <AuthForm
      id="own-password-title"
      title={t('pages.ownPassword.title')}
      intro={t('pages.ownPassword.intro')}
      saver={saver}
      onSubmit={submit}
      submit={t('pages.ownPassword.save')}
      busy={t('common.saving')}
      after={
        <button type="button" onClick={onSignOut}>
          {t('pages.signOut')}
        </button>
      }
    >
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
      <NewPasswordFields id="own-password" value={next} onChange={setNext} hint={t('pages.password.hint')} />
    </AuthForm>
  );
}
