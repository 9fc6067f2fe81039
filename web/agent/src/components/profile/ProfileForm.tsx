/** Own name, phone and photo link (PATCH /api/v1/me); the result shows beside the button, the header follows at once. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import { useApp } from '../../context';
import { safeImage } from '../../format';
import { ErrorText } from '../admin/ErrorText';

export function ProfileForm() {
  const { me, setMe } = useApp();
  const [form, setForm] = useState({ name: me.name, phone: me.phone ?? '', photo_url: me.photo_url ?? '' });
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => {
    setSaved('');
    setForm((f) => ({ ...f, [key]: e.target.value }));
  };
  const photo = safeImage(form.photo_url.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setSaved('');
    setError(null);
    try {
      const next = await api.updateProfile({ name: form.name, phone: form.phone.trim() || null, photo_url: form.photo_url.trim() || null });
      setMe(next);
      setForm({ name: next.name, phone: next.phone ?? '', photo_url: next.photo_url ?? '' });
      setSaved('Saved.');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="profile-details">
      <h2 id="profile-details">Name and photo</h2>
      <label>
        Name
        <input name="name" required maxLength={200} autoComplete="name" aria-describedby="profile-name-hint" value={form.name} onChange={set('name')} />
      </label>
      <span id="profile-name-hint" className="muted small">
        Visitors and your colleagues see it.
      </span>
      <label>
        Phone (optional)
        <input type="tel" name="phone" autoComplete="tel" value={form.phone} onChange={set('phone')} />
      </label>
      <label>
        Photo link (optional)
        <input
          type="url"
          name="photo_url"
          placeholder="https://example.com/me.jpg"
          aria-describedby="profile-photo-hint"
          value={form.photo_url}
          onChange={set('photo_url')}
        />
      </label>
      <span id="profile-photo-hint" className="muted small">
        An https:// link to a picture of you; visitors see it beside your messages. Leave it empty for none.
      </span>
      {photo && <img className="avatar" src={photo} alt="Your photo, as visitors see it" width={64} height={64} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save profile
        </button>
        <span role="status" className="saved">
          {saved}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
