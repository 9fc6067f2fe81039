/**
 * Idle detection for presence: the person is idle when no tab of the app saw
 * activity (a key, a click, a pointer move, scrolling, the tab coming to
 * front) for `idleMs`. Tabs share the time of the last activity through
 * localStorage, so a tab left in the background does not report idle while
 * the person works in another. `onIdle` is called once when idle begins,
 * `onActive` once when activity follows it (in the tab that saw it).
 */
const KEY = 'parley.lastActivity';
const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focus'] as const;
/** Activity is written for the other tabs at most this often. */
const SHARE_EVERY_MS = 5000;

export interface IdleWatch {
  idleMs: number;
  onIdle: () => void;
  onActive: () => void;
}

function sharedLast(): number {
  try {
    const v = Number(window.localStorage.getItem(KEY));
    return Number.isFinite(v) ? v : 0;
  } catch {
    return 0;
  }
}

function share(at: number): void {
  try {
    window.localStorage.setItem(KEY, String(at));
  } catch {
    // private mode: each tab on its own
  }
}

/** Starts watching; returns the function that stops it. */
export function watchIdle({ idleMs, onIdle, onActive }: IdleWatch): () => void {
  let last = Date.now();
  let shared = 0;
  let idle = false;
  share(last);

  const activity = () => {
    last = Date.now();
    if (last - shared >= SHARE_EVERY_MS) {
      shared = last;
      share(last);
    }
    if (idle) {
      idle = false;
      onActive();
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') activity();
  };
  const check = () => {
    const latest = Math.max(last, sharedLast());
    if (!idle && Date.now() - latest >= idleMs) {
      idle = true;
      onIdle();
    } else if (idle && latest > last) {
      // Another tab saw activity and reported it.
      last = latest;
      idle = false;
    }
  };

  for (const e of EVENTS) window.addEventListener(e, activity, { passive: true });
  document.addEventListener('visibilitychange', onVisible);
  const timer = window.setInterval(check, Math.max(1000, Math.min(15_000, Math.floor(idleMs / 4))));
  return () => {
    for (const e of EVENTS) window.removeEventListener(e, activity);
    document.removeEventListener('visibilitychange', onVisible);
    window.clearInterval(timer);
  };
}
