/**
 * Own password (PUT /api/v1/me/password): the current one, the new one twice.
 * Every other session of the person ends (other browsers and devices sign in
 * again); this one stays. The result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import { phrase, t, type Phrase } from '../../i18n';
import { ErrorText } from '../admin/ErrorText';

const EMPTY = { current: '', next: '', again: '' };

export function PasswordForm() {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  // Said at render (Phrase), so an error shown before a language switch follows it.
  const [error, setError] = useState<Phrase | null>(null);
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: e.target.value }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setError(null);
    if (form.next !== form.again) return setError(phrase(() => t('pages.profilePassword.differ')));
    if (form.next.length < 8) return setError(phrase(() => t('pages.profilePassword.tooShort')));
    setBusy(true);
    try {
      await api.changePassword(form.current, form.next);
      setForm(EMPTY);
      setSaved(true);
    } catch (err) {
      setError(phrase(() => errorText(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-password">
      <h2 id="profile-password">{t('common.password')}</h2>
      <label>
        {t('pages.profilePassword.current')}
        <input type="password" name="current_password" required autoComplete="current-password" value={form.current} onChange={set('current')} />
      </label>
      <label>
        {t('pages.password.new')}
        <input
          type="password"
          name="new_password"
          required
          minLength={8}
          autoComplete="new-password"
          aria-describedby="profile-password-hint"
          value={form.next}
          onChange={set('next')}
        />
      </label>
      <span id="profile-password-hint" className="muted small">
        {t('pages.profilePassword.hint')}
      </span>
      <label>
        {t('pages.profilePassword.again')}
        <input type="password" name="new_password_again" required autoComplete="new-password" value={form.again} onChange={set('again')} />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('pages.profilePassword.change')}
        </button>
        <span role="status" className="saved">
          {saved && t('pages.profilePassword.changed')}
        </span>
      </div>
      <ErrorText error={error?.say() ?? null} />
    </form>
  );
}
