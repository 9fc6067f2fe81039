/** Asks for desktop notification permission (only from a click, as browsers require). */
import { useState } from 'react';
import { notificationPermission, requestNotifications } from '../alerts';
import { t } from '../i18n';

export function AlertsButton() {
  const [permission, setPermission] = useState(notificationPermission());
  if (permission === 'unsupported' || permission === 'granted') return null;
  if (permission === 'denied') return <span className="muted small">{t('pages.alerts.blocked')}</span>;
  return (
    <button
      type="button"
      onClick={async () => {
        setPermission(await requestNotifications());
      }}
    >
      {t('pages.alerts.enable')}
    </button>
  );
}
