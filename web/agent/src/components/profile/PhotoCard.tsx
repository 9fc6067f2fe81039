/**
 * The photo visitors see, on the Profile page: uploaded (POST /api/v1/me/photo),
 * an http(s) link, or none (PATCH /api/v1/me). It goes to the widget's header
 * and svc_onAccept, to chat channels as sender.photo and to event webhooks as
 * agent.photo. Each save shows its result beside it.
 */
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import { useSession } from '../../context';
import { phrase, t, type Phrase } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import { ErrorText } from '../admin/ErrorText';
import { PHOTO_TYPES, photoProblem } from '../../photo';

export function PhotoCard() {
  const { me, setMe } = useSession();
  const [link, setLink] = useState(me.photo_url && !me.photo_url.includes('/widget/uploads/') ? me.photo_url : '');
  const [saved, setSaved] = useState<TextKey | null>(null);
  // Said at render (Phrase), so an error shown before a language switch follows it.
  const [error, setError] = useState<Phrase | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const run = async (action: () => Promise<void>) => {
    setSaved(null);
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError(phrase(() => errorText(err)));
    } finally {
      setBusy(false);
    }
  };

  const upload = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (photoProblem(file)) {
      setSaved(null);
      setError(phrase(() => photoProblem(file) ?? ''));
      return;
    }
    void run(async () => {
      setMe(await api.uploadPhoto(file));
      setLink('');
      setSaved('pages.photo.savedUpload');
    });
  };

  const saveLink = (e: FormEvent) => {
    e.preventDefault();
    const url = link.trim();
    if (!/^https?:\/\/\S+$/i.test(url)) {
      setSaved(null);
      setError(phrase(() => t('pages.photo.badLink')));
      return;
    }
    void run(async () => {
      setMe(await api.updateProfile({ photo_url: url }));
      setSaved('pages.photo.savedLink');
    });
  };

  const remove = () =>
    void run(async () => {
      setMe(await api.updateProfile({ photo_url: null }));
      setLink('');
      setSaved('pages.photo.removed');
    });

  return (
    <form className="card form-grid" onSubmit={saveLink} aria-labelledby="photo-title">
      <h2 id="photo-title">{t('pages.photo.title')}</h2>
      <div className="photo-row">
        {me.photo_url ? (
          <img className="profile-photo" src={me.photo_url} alt={t('pages.photo.yours')} width={96} height={96} />
        ) : (
          <span className="profile-photo empty" aria-hidden="true">
            {me.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="photo-actions">
          <p className="muted small">
            {me.photo_url ? t('pages.photo.shown') : t('pages.photo.none')} {t('pages.photo.advice')}
          </p>
          <div className="form-actions">
            <button type="button" className="primary" disabled={busy} onClick={() => fileInput.current?.click()}>
              {t('pages.photo.upload')}
            </button>
            {me.photo_url && (
              <button type="button" disabled={busy} onClick={remove}>
                {t('pages.photo.remove')}
              </button>
            )}
          </div>
          <input ref={fileInput} type="file" name="photo_file" accept={PHOTO_TYPES.join(',')} hidden onChange={upload} aria-label={t('pages.photo.file')} />
        </div>
      </div>
      <label>
        {t('pages.photo.link')}
        <input name="photo_url" type="url" placeholder="https://example.com/me.png" value={link} onChange={(e) => setLink(e.target.value)} />
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t('pages.photo.useLink')}
        </button>
        <span role="status" className="saved">
          {saved && t(saved)}
        </span>
      </div>
      <ErrorText error={error?.say() ?? null} />
    </form>
  );
}
