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
 *    (the app navigates: web/agent/src/push.ts) or opens one.
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
