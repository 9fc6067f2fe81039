/**
 * New-chat alerts: a short chime made with WebAudio (no audio file to fetch),
 * a desktop notification once the agent allowed them, and the unread count in
 * the tab title. Every one of them is best effort: a browser that blocks
 * audio or notifications simply gets none.
 */

const BASE_TITLE = 'Parley';
let audio: AudioContext | null = null;

/** Browsers allow audio only after a gesture: call this from one (any click in the app). */
export function unlockAudio(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

export function chime(): void {
  try {
    if (!audio || audio.state !== 'running') return;
    const now = audio.currentTime;
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    for (const [freq, at] of [
      [880, 0],
      [1318.5, 0.12],
    ] as const) {
      const osc = audio.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(freq, now + at);
      osc.connect(gain);
      osc.start(now + at);
      osc.stop(now + 0.45);
    }
  } catch {
    // no sound
  }
}

export function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

export async function requestNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** A desktop notification when allowed and the tab is not in front; clicking it focuses the app. */
export function notify(title: string, body: string, tag: string, onClick: () => void): void {
  if (!notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    // some platforms only allow notifications from a service worker
  }
}

export function setTitleCount(count: number): void {
  document.title = count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
}
