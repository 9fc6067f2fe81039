/**
 * The Profile page (/profile), for everyone signed in: the photo visitors see
 * (PhotoCard), their own name and phone (PATCH /api/v1/me), their alerts
 * (NotificationPrefsForm: sound, volume, desktop, which events, mute), their
 * own password (PUT /api/v1/me/password), which signs out every other session
 * of theirs, and Sign out everywhere (SessionsCard), which ends them all.
 * The e-mail (sign-in name) and the role are an admin's to change.
 */
import { useApp } from '../../context';
import { NotificationPrefsForm } from './NotificationPrefsForm';
import { PasswordForm } from './PasswordForm';
import { PhotoCard } from './PhotoCard';
import { ProfileForm } from './ProfileForm';
import { SessionsCard } from './SessionsCard';

export function ProfilePage() {
  const { me } = useApp();
  return (
    <section className="page profile" aria-labelledby="profile-title">
      <h1 id="profile-title">Your profile</h1>
      <p className="muted">
        You sign in as <strong>{me.email}</strong> ({me.role === 'admin' ? 'administrator' : 'agent'}). An administrator changes the address and the role.
      </p>
      <PhotoCard />
      <ProfileForm />
      <NotificationPrefsForm />
      <PasswordForm />
      <SessionsCard />
    </section>
  );
}
