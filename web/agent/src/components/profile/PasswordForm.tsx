/**
 * Own password (PUT /api/v1/me/password): the current one, the new one twice.
 * Every other session of the person ends (other browsers and devices sign in
 * again); this one stays. The result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t } from '../../i18n';
import { SaveResult } from '../admin/SaveResult';
import { NewPasswordFields, passwordProblem, type NewPassword } from '../NewPasswordFields';

const EMPTY: NewPassword = { password: '', again: '' };

export function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState<NewPassword>(EMPTY);
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const texts = { differ: 'pages.profilePassword.differ', tooShort: 'pages.profilePassword.tooShort' } as const;
    const problem = passwordProblem(next, texts);
    // Said again at each render, so it follows a language switch made while it shows.
    if (problem) return saver.fail(() => passwordProblem(next, texts) ?? problem);
    void saver.run(
      async () => {
        await api.changePassword(current, next.password);
        setCurrent('');
        setNext(EMPTY);
      },
      () => t('pages.profilePassword.changed'),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-password">
      <h2 id="profile-password">{t('common.password')}</h2>
      <label>
        {t('pages.profilePassword.current')}
        <input
          type="password"
          name="current_password"
          required
          autoComplete="current-password"
          value={current}
          onChange={(e) => {
            saver.clear();
            setCurrent(e.target.value);
          }}
        />
      </label>
      <NewPasswordFields
        id="profile-password"
        value={next}
        onChange={(v) => {
          saver.clear();
          setNext(v);
        }}
        hint={t('pages.profilePassword.hint')}
        againLabel={t('pages.profilePassword.again')}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('pages.profilePassword.change')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
