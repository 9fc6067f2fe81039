/** Own name and phone (PATCH /api/v1/me); the result shows beside the button, the header follows at once. The photo has its own card (PhotoCard.tsx). */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSession } from '../../context';
import { t } from '../../i18n';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from '../admin/SaveResult';

export function ProfileForm() {
  const { me, setMe } = useSession();
  const [form, setForm] = useState({ name: me.name, phone: me.phone ?? '' });
  const saver = useSaver();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => {
    saver.clear();
    setForm((f) => ({ ...f, [key]: e.target.value }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => {
        const next = await api.updateProfile({ name: form.name, phone: form.phone.trim() || null });
        setMe(next);
        setForm({ name: next.name, phone: next.phone ?? '' });
      },
      () => t('pages.profile.saved'),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-details">
      <h2 id="profile-details">{t('pages.profile.details')}</h2>
      <label>
        {t('common.name')}
        <input name="name" required maxLength={200} autoComplete="name" aria-describedby="profile-name-hint" value={form.name} onChange={set('name')} />
      </label>
      <span id="profile-name-hint" className="muted small">
        {t('pages.profile.nameHint')}
      </span>
      <label>
        {t('pages.profile.phone')}
        <input type="tel" name="phone" autoComplete="tel" value={form.phone} onChange={set('phone')} />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('pages.profile.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
