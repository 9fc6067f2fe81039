/*
 * Parley's service worker (scope /), served at /sw.js from web/agent/public/:
 *  - the app shell: the hashed assets (/assets/…) and icons are kept in a
 *    cache as they are fetched and served from it afterwards (they never
 *    change: the names are content hashes), so the app opens at once; a page
 *    (navigation) is asked of the network (its small index.html, never
 *    stale), and when the network fails the "no connection" page is shown;
 *  - Web Push: a push from Parley (server/push/deliveryKind.ts: {kind, title,
 *    body, url, chat_id, tag}) is shown as a notification, one per chat
 *    (the tag); clicking it focuses an open agent-app window on that chat
 *    (the app navigates: web/agent/src/push.ts) or opens one;
 *  - a subscription the browser replaced or expired (pushsubscriptionchange)
 *    is made again with the server's VAPID key (unless the browser gives the
 *    new one) and registered in place of the old one, with the session's
 *    cookies and the CSRF cookie read through cookieStore; a browser without
 *    cookieStore hands it to an open agent-app window to register.
 * The API, the stream, the widget and the chat channel are never cached.
 */
/* global self, caches */
const SHELL_CACHE = 'parley-shell-v1';
const SHELL = ['/offline.html', '/offline.css', '/icons/icon-192.png', '/icons/favicon-32.png'];
const NEVER = ['/api/', '/wh/', '/widget/', '/healthz', '/metrics', '/openapi.json'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.some((p) => url.pathname.startsWith(p))) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match('/offline.html')) || Response.error()));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/') || url.pathname === '/offline.css') {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

/** The notification of one push, from Parley's payload (no more than it needs). */
function notificationOf(data) {
  const title = typeof data.title === 'string' && data.title ? data.title : 'Parley';
  return {
    title,
    options: {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      renotify: typeof data.tag === 'string',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/', chat_id: data.chat_id ?? null, kind: data.kind ?? null },
    },
  };
}

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const { title, options } = notificationOf(data);
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Focuses an agent-app window on `path` (the app navigates itself), or opens one. */
async function openInApp(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    open.postMessage({ type: 'parley-open', url: path });
    try {
      await open.focus();
    } catch {
      // focusing needs the click's user activation; the chat is open in it all the same
    }
    return;
  }
  await self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || '/';
  const done = openInApp(path);
  try {
    event.waitUntil(done);
  } catch {
    // an event made by a test (not trusted) cannot be extended; openInApp runs all the same
  }
});

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The X-CSRF-Token an unsafe API call needs (the parley_csrf cookie), or null where cookieStore is missing. */
async function csrfToken() {
  try {
    const cookie = self.cookieStore ? await self.cookieStore.get('parley_csrf') : null;
    return cookie ? cookie.value : null;
  } catch {
    return null;
  }
}

/** The push subscription that replaces `old`: made again, or registered on the server in its place. */
async function resubscribe(oldSubscription, newSubscription) {
  let subscription = newSubscription || (await self.registration.pushManager.getSubscription());
  if (!subscription || (oldSubscription && subscription.endpoint === oldSubscription.endpoint)) {
    const answer = await fetch('/api/v1/push/vapid-public-key', { credentials: 'same-origin' });
    if (!answer.ok) return; // signed out: "Notify me on this device" makes a new one after signing in
    const { public_key } = await answer.json();
    subscription = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
  }
  const json = subscription.toJSON();
  const oldEndpoint = oldSubscription && oldSubscription.endpoint !== json.endpoint ? oldSubscription.endpoint : null;
  const csrf = await csrfToken();
  if (!csrf) {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const w of windows) w.postMessage({ type: 'parley-resubscribed', subscription: json, old_endpoint: oldEndpoint });
    return;
  }
  const call = (method, body) =>
    fetch('/api/v1/me/push-subscriptions', {
      method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });
  await call('POST', { endpoint: json.endpoint, keys: json.keys });
  if (oldEndpoint) await call('DELETE', { endpoint: oldEndpoint });
}

self.addEventListener('pushsubscriptionchange', (event) => {
  const done = resubscribe(event.oldSubscription || null, event.newSubscription || null).catch(() => {});
  try {
    event.waitUntil(done);
  } catch {
    // an event made by a test (not trusted) cannot be extended; resubscribe runs all the same
  }
});
