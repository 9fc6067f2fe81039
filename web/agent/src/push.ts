/**
 * This device's side of Web Push (docs/NOTIFICATIONS.md): the service worker
 * (/sw.js: the app shell offline, the notifications) registered at start;
 * "Notify me on this device" subscribes through the browser's push service
 * with the server's VAPID key and registers the subscription
 * (POST /api/v1/me/push-subscriptions), or removes it. A notification
 * clicked while the app is open brings it to that chat (the service
 * worker's message), and a subscription the browser replaced is registered
 * here when the worker could not do it itself. Every step is best effort: a browser without service
 * workers or push simply offers none.
 */
import { api } from './api';
import { t } from './i18n';
import { navigate } from './router';

export function serviceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

export function pushSupported(): boolean {
  return serviceWorkerSupported() && typeof window !== 'undefined' && 'PushManager' in window && typeof Notification !== 'undefined';
}

/** Registers /sw.js (scope /) and follows its "open this chat" messages. */
export function startServiceWorker(): void {
  if (!serviceWorkerSupported()) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown; url?: unknown } | null;
    if (data?.type === 'parley-open' && typeof data.url === 'string' && data.url.startsWith('/')) navigate(data.url);
    // A subscription the browser replaced, which the worker could not register itself (no cookieStore).
    const changed = event.data as { type?: unknown; subscription?: PushSubscriptionJSON; old_endpoint?: unknown } | null;
    if (changed?.type === 'parley-resubscribed' && changed.subscription) {
      const old = typeof changed.old_endpoint === 'string' ? changed.old_endpoint : null;
      void api
        .addPushDevice(changed.subscription)
        .then(() => (old ? api.removePushDevice(old) : undefined))
        .catch(() => {});
    }
  });
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!serviceWorkerSupported()) return null;
  try {
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
}

/** This browser's push subscription, when it has one. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  try {
    // Not `ready`: it never settles when the worker could not register, and signing out waits on this.
    const reg = await navigator.serviceWorker.getRegistration('/');
    return (await reg?.pushManager.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Notify me on this device: asks the permission, subscribes, registers. Throws a sentence when it cannot. */
export async function notifyThisDevice(): Promise<void> {
  if (!pushSupported()) throw new Error(t('pages.errors.pushUnsupported'));
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(t('pages.errors.pushBlocked'));
  const reg = await registration();
  if (!reg) throw new Error(t('pages.errors.noServiceWorker'));

  const { public_key } = await api.vapidPublicKey();
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another key (the server's was replaced) cannot be used.
  if (sub && sub.options.applicationServerKey) {
    const current = new Uint8Array(sub.options.applicationServerKey);
    const wanted = keyBytes(public_key);
    if (current.length !== wanted.length || current.some((b, i) => b !== wanted[i])) {
      await sub.unsubscribe();
      sub = null;
    }
  }
  try {
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
  } catch {
    throw new Error(t('pages.errors.pushUnreachable'));
  }
  await api.addPushDevice(sub.toJSON());
}

/** Stop notifying this device: removed on the server and in the browser. */
export async function stopNotifyingThisDevice(): Promise<void> {
  const sub = await currentPushSubscription();
  if (!sub) return;
  await api.removePushDevice(sub.endpoint).catch(() => {});
  await sub.unsubscribe().catch(() => false);
}
