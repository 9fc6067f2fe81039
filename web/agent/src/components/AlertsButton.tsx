/** Asks for desktop notification permission (only from a click, as browsers require). */
import { useState } from 'react';
import { notificationPermission, requestNotifications } from '../alerts';

export function AlertsButton() {
  const [permission, setPermission] = useState(notificationPermission());
  if (permission === 'unsupported' || permission === 'granted') return null;
  if (permission === 'denied') return <span className="muted small">Desktop alerts blocked</span>;
  return (
    <button
      type="button"
      onClick={async () => {
        setPermission(await requestNotifications());
      }}
    >
      Enable desktop alerts
    </button>
  );
}
