/**
 * Keeps the signed-in agent's presence and alerts in step with the person:
 * when the app opens it says "active" (PUT /me/presence: the agent gets back
 * the status it chose, Online unless it chose otherwise), then, when the
 * account set an idle delay, watches for inactivity (idle.ts) and says
 * "idle" (an online agent turns Away) and "active" again on the next
 * activity. It also hands the agent's alert preferences, status and chats
 * (which are waiting, which are its own) to the alerts (alerts.ts), and says
 * whether this tab is visible (tabVisibility.ts: no push while it is). Renders
 * nothing.
 */
import { useEffect } from 'react';
import { configureAlerts, followInbox, stopAllRinging } from '../alerts';
import { api } from '../api';
import { useSession, useInbox } from '../context';
import { chatsWithStatus } from '../inbox';
import { watchIdle } from '../idle';
import { reportTabVisibility } from '../tabVisibility';

export function PresenceKeeper() {
  const { me, setMe } = useSession();
  const { inbox, loaded } = useInbox();

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
    // Whether this tab is visible: nothing is pushed to the agent's devices while one is (tabVisibility.ts).
    const stopTab = reportTabVisibility();
    return () => {
      alive = false;
      stop();
      stopTab();
      stopAllRinging();
    };
  }, [setMe]);

  useEffect(() => configureAlerts({ status: me.status }), [me.status]);

  // A chat accepted or gone stops ringing even when its frame was missed (the lists are read again after a reset).
  const pending = chatsWithStatus(inbox, 'pending')
    .map((c) => c.id)
    .join(',');
  const own = chatsWithStatus(inbox, 'active')
    .filter((c) => c.accepted_by === me.id)
    .map((c) => c.id)
    .join(',');
  useEffect(() => {
    if (!loaded) return;
    const ids = (list: string) => new Set(list === '' ? [] : list.split(',').map(Number));
    followInbox(ids(pending), ids(own));
  }, [loaded, pending, own]);

  return null;
}
