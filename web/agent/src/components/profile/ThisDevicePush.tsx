/**
 * "Notify me on this device", in the alert preferences: subscribes this
 * browser to Web Push (push.ts) so the chosen alerts reach it when no tab of
 * the app is open, or stops. What it does and when: docs/NOTIFICATIONS.md.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { currentPushSubscription, notifyThisDevice, pushSupported, stopNotifyingThisDevice } from '../../push';
import { t } from '../../i18n';
import { ErrorText } from '../admin/ErrorText';

export function ThisDevicePush({ onChange }: { onChange?: () => void }) {
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported = pushSupported();

  useEffect(() => {
    if (!supported) return;
    // Subscribed only when the server has it too (it may have been removed from another device's Profile, or gone at the push service).
    void currentPushSubscription().then(async (s) => {
      if (!s) return setSubscribed(false);
      const devices = await api.pushDevices().catch(() => null);
      setSubscribed(devices === null || devices.subscriptions.some((d) => d.endpoint === s.endpoint));
    });
  }, [supported]);

  const act = async (on: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (on) await notifyThisDevice();
      else await stopNotifyingThisDevice();
      setSubscribed(on);
      onChange?.();
    } catch (err) {
      setError(err instanceof Error && !('code' in err) ? err.message : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="this-device-push">
      <p className="muted small">{!supported ? t('pages.push.unsupported') : subscribed ? t('pages.push.on') : t('pages.push.off')}</p>
      {supported && subscribed !== null && (
        <button type="button" disabled={busy} onClick={() => void act(!subscribed)}>
          {subscribed ? t('pages.push.stop') : t('pages.push.start')}
        </button>
      )}
      <ErrorText error={error} />
    </div>
  );
}
