/**
 * Sign out everywhere (POST /api/v1/auth/logout-all), on the Profile page
 * beside the password: every session of the person ends, on every device,
 * this one included. It asks once more; a failure is said next to the button.
 * It lives here, not in the header, so it is never pressed for "Sign out".
 */
import { useState } from 'react';
import { errorText } from '../../api';
import { useApp } from '../../context';
import { ConfirmButton } from '../admin/ConfirmButton';
import { ErrorText } from '../admin/ErrorText';

export function SessionsCard() {
  const { signOut } = useApp();
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="card form-grid" aria-labelledby="profile-sessions">
      <h2 id="profile-sessions">Sessions</h2>
      <span className="muted small">
        Signed in on a computer you no longer use, or lost a phone with the app on it? Sign out everywhere ends every session of yours, this one too; you then
        sign in again with your password.
      </span>
      <div className="form-actions">
        <ConfirmButton
          label="Sign out everywhere"
          question="End every session of yours, on every device?"
          onConfirm={async () => {
            setError(null);
            try {
              await signOut(true);
            } catch (err) {
              setError(`Not signed out everywhere: ${errorText(err)}`);
            }
          }}
        />
      </div>
      <ErrorText error={error} />
    </section>
  );
}
