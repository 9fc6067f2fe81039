/**
 * Tells the server whether this tab is visible (PUT /api/v1/me/tabs/:tab),
 * so it pushes nothing to a device while a visible tab of the agent already
 * alerts (server/push/subscriber.ts): at once on every change, again every
 * REPEAT_MS while visible (a tab closed without a word stops counting after
 * the server's TAB_FRESH_MS), and "hidden" as the page goes away. The tab's
 * id lives in sessionStorage: a reload is the same tab.
 */
import { api, csrfToken } from './api';

export const REPEAT_MS = 30_000;

function tabId(): string {
  const key = 'parley_tab';
  try {
    const known = sessionStorage.getItem(key);
    if (known) return known;
    const made = `tab-${crypto.randomUUID()}`;
    sessionStorage.setItem(key, made);
    return made;
  } catch {
    return `tab-${crypto.randomUUID()}`;
  }
}

/** Starts reporting; returns the stop function (signing out). */
export function reportTabVisibility(): () => void {
  const tab = tabId();
  const say = (visible: boolean) => void api.markTab(tab, visible).catch(() => {});
  const onChange = () => say(document.visibilityState === 'visible');
  const onHide = () => {
    // keepalive: the request outlives the page.
    void fetch(`/api/v1/me/tabs/${encodeURIComponent(tab)}`, {
      method: 'PUT',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', ...csrfHeader() },
      body: JSON.stringify({ visible: false }),
    }).catch(() => {});
  };
  onChange();
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') say(true);
  }, REPEAT_MS);
  document.addEventListener('visibilitychange', onChange);
  window.addEventListener('pagehide', onHide);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onChange);
    window.removeEventListener('pagehide', onHide);
    say(false);
  };
}

function csrfHeader(): Record<string, string> {
  const token = csrfToken();
  return token ? { 'x-csrf-token': token } : {};
}
