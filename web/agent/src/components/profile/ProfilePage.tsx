/**
 * The Profile page (/profile), for everyone signed in: the photo visitors see
 * (PhotoCard), their own name and phone (PATCH /api/v1/me), their alerts
 * (NotificationPrefsForm: sound, volume, desktop, which events, mute, Notify me
 * on this device), the devices notified (DevicesCard), their
 * own password (PUT /api/v1/me/password), which signs out every other session
 * of theirs, and Sign out everywhere (SessionsCard), which ends them all.
 * Their own e-mail (EmailForm: confirmed by a link while mail is sent); an
 * administrator may change it too (Admin → Agents), and the role.
 */
import { useState } from 'react';
import { useSession } from '../../context';
import { t } from '../../i18n';
import { Phrase } from '../Phrase';
import { DevicesCard } from './DevicesCard';
import { EmailForm } from './EmailForm';
import { LanguageForm } from './LanguageForm';
import { NotificationPrefsForm } from './NotificationPrefsForm';
import { PasswordForm } from './PasswordForm';
import { PhotoCard } from './PhotoCard';
import { ProfileForm } from './ProfileForm';
import { SessionsCard } from './SessionsCard';

export function ProfilePage() {
  const { me } = useSession();
  const [devices, setDevices] = useState(0);
  return (
    <section className="page profile" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('pages.profile.title')}</h1>
      <p className="muted">
        <Phrase text={t(me.role === 'admin' ? 'pages.profile.signInAsAdmin' : 'pages.profile.signInAsAgent')} parts={{ email: <strong>{me.email}</strong> }} />
      </p>

      <PhotoCard />
      <ProfileForm />
      <EmailForm />
      <LanguageForm />

      <NotificationPrefsForm onDevicesChanged={() => setDevices((n) => n + 1)} />
      <DevicesCard version={devices} />
      <PasswordForm />
      <SessionsCard />
    </section>
  );
}
