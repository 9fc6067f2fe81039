/**
 * Sign out everywhere (POST /api/v1/auth/logout-all), on the Profile page
 * beside the password: every session of the person ends, on every device,
 * this one included. It asks once more; a failure is said next to the button.
 * It lives here, not in the header, so it is never pressed for "Sign out".
 */
import { useState } from 'react';
import { errorText } from '../../api';
import { useSession } from '../../context';
import { phrase, t, type Phrase } from '../../i18n';
import { ConfirmButton } from '../admin/ConfirmButton';
import { ErrorText } from '../admin/ErrorText';

export function SessionsCard() {
  const { signOut } = useSession();
  // Said at render (Phrase), so an error shown before a language switch follows it.
  const [error, setError] = useState<Phrase | null>(null);
  return (
    <section className="card form-grid" aria-labelledby="profile-sessions">
      <h2 id="profile-sessions">{t('pages.sessions.title')}</h2>
      <span className="muted small">{t('pages.sessions.intro')}</span>
      <div className="form-actions">
        <ConfirmButton
          label={t('pages.sessions.everywhere')}
          question={t('pages.sessions.question')}
          onConfirm={async () => {
            setError(null);
            try {
              await signOut(true);
            } catch (err) {
              setError(phrase(() => t('pages.sessions.failed', { error: errorText(err) })));
            }
          }}
        />
      </div>
      <ErrorText error={error?.say() ?? null} />
    </section>
  );
}
