/**
 * Keeps the signed-in agent's presence and alerts in step with the person:
 * when the app opens it says "active" (PUT /me/presence: the agent gets back
 * the status it chose, Online unless it chose otherwise), then, when the
 * account set an idle delay, watches for inactivity (idle.ts) and says
 * "idle" (an online agent turns Away) and "active" again on the next
 * activity. It also hands the agent's alert preferences and status to the
 * alerts (alerts.ts). Renders nothing.
 */
import { useEffect } from 'react';
import { configureAlerts, stopAllRinging } from '../alerts';
import { api } from '../api';
import { useApp } from '../context';
import { watchIdle } from '../idle';

export function PresenceKeeper() {
  const { me, setMe } = useApp();

  useEffect(() => {
    let alive = true;
    let stop = () => {};
    const report = (state: 'active' | 'idle') =>
      api.setPresence(state).then(
        (p) => {
          if (alive) setMe(p.agent);
          return p;
        },
        () => null,
      );
    void report('active').then((p) => {
      if (!alive || !p || p.away_after_idle_minutes <= 0) return;
      stop = watchIdle({ idleMs: p.away_after_idle_minutes * 60_000, onIdle: () => void report('idle'), onActive: () => void report('active') });
    });
    api.notificationPrefs().then(
      (prefs) => configureAlerts({ prefs }),
      () => {},
    );
    return () => {
      alive = false;
      stop();
      stopAllRinging();
    };
  }, [setMe]);

  useEffect(() => configureAlerts({ status: me.status }), [me.status]);

  return null;
}
