/**
 * The installable agent app and its Web Push notifications in real Chromium
 * against the real app: the DevTools protocol reports no installability
 * errors and parses the manifest (named after the account), the service
 * worker registers at scope /, a push delivered through the DevTools protocol
 * (ServiceWorker.deliverPushMessage) with a payload Parley produced (sent to
 * the test push service, decrypted there) shows a notification
 * (registration.getNotifications()), and clicking it brings the open app to
 * that chat; offline, a page shows the "no connection" page; Profile offers
 * "Notify me on this device" and lists the devices notified, each removable;
 * a subscription the browser replaced (pushsubscriptionchange) is registered
 * in place of the old one, by the worker or, without cookieStore, the app.
 * (Chromium's own pushManager.subscribe needs its vendor's push service,
 * which test machines cannot reach: server/push/push.test.ts tests the
 * server's side against the test push service.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { THEME_COLOR } from '../../server/routes/app/pwa.js';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { startPushService, type TestPushService } from '../../test/helpers/pushService.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchPersistentBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: { url?: string; chat_id?: number | null };
}

describe.skipIf(!chromiumAvailable())('agent app: installable, offline, Web Push notifications', () => {
  let run: RunningApp;
  let push: TestPushService;
  let profileDir: string;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  const browserLog: string[] = [];
  const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    run.t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...bearer(token), 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile Safari/537.36' },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    await run.t.app.ctx.db.updateTable('accounts').set({ name: 'Acme Support' }).execute();
    push = await startPushService(async () => (await api('GET', '/push/vapid-public-key', run.t.adminToken)).json<{ public_key: string }>().public_key);
    // A profile on disk: an incognito window is never installable.
    profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pwa-'));
    context = await launchPersistentBrowser(profileDir, { viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['notifications'], { origin: run.base });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    cdp = await context.newCDPSession(page);
  });
  afterEach(async (ctx) => reportFailure(ctx.task, page, browserLog));
  afterAll(async () => {
    await context?.close();
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
    await run?.t.close();
    await push?.close();
  });

  it('registers the service worker at scope / and is installable: no installability errors, the manifest parses', async () => {
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${run.base}/`);
    const installability = await cdp.send('Page.getInstallabilityErrors');
    expect(installability.installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toBe(`${run.base}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data ?? '{}') as {
      name: string;
      display: string;
      start_url: string;
      theme_color: string;
      icons: { purpose: string; sizes: string }[];
    };
    expect(parsed).toMatchObject({ name: 'Acme Support', display: 'standalone', start_url: '/', theme_color: THEME_COLOR });
    // The page says the same colour to the browser's toolbar.
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(THEME_COLOR);
    expect(parsed.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const favicon = await page.request.get(`${run.base}/favicon.ico`);
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toBe('image/png');
  });

  it('shows a push Parley produced as a notification, and its click opens the chat in the app', { timeout: 60_000 }, async () => {
    // An agent without an open tab gets the push: what Parley sent, decrypted by the test push service.
    // A new address on each attempt: CI runs a failed test once more on the same server.
    const pat = await addAgent(run.t, { email: `pat-${Date.now()}@example.com`, name: 'Pat' });
    const device = push.subscribe();
    expect((await api('POST', '/me/push-subscriptions', pat.token, { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    const channel = await createChatChannel(run.t);
    expect((await postInbound(run.t, channel, textMessage(`pwa-visitor-${Date.now()}`, 'Is my parcel on its way?'))).statusCode).toBe(200);
    const received = await waitFor(() => push.pushesFor(device).find((p) => p.payload.kind === 'new_chat'), 20_000);
    const chatId = received.payload.chat_id as number;

    await page.goto(`${run.base}/profile`);
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) =>
      registrations.push(...e.registrations),
    );
    // Enabling the domain reports the registrations there are; on a loaded machine that report was
    // once missed for 20 s, so the domain is enabled again until it comes.
    let registration: { registrationId: string } | undefined;
    for (let round = 0; round < 4 && !registration; round++) {
      if (round > 0) await cdp.send('ServiceWorker.disable');
      await cdp.send('ServiceWorker.enable');
      registration = await waitFor(() => registrations.find((r) => r.scopeURL === `${run.base}/` && !r.isDeleted), 5_000).catch(() => undefined);
    }
    if (!registration) throw new Error('the DevTools protocol reported no service worker registration at scope /');
    // The push as the browser's push service hands it to the worker. Chromium drops a delivery now and
    // then on a loaded machine (the worker is still starting): delivered again until it shows.
    const notifications = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })),
      );
    let shown: ShownNotification[] | false = false;
    for (let round = 0; round < 4 && !shown; round++) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: run.base,
        registrationId: registration.registrationId,
        data: JSON.stringify(received.payload),
      });
      shown = await waitFor(async () => {
        const list = await notifications();
        return list.length > 0 && (list as ShownNotification[]);
      }, 5_000).catch(() => false as const);
    }
    expect(shown).toEqual([
      {
        title: received.payload.title,
        body: 'Is my parcel on its way?',
        tag: `chat-${chatId}`,
        data: { url: `/chats/${chatId}`, chat_id: chatId, kind: 'new_chat' },
      },
    ]);

    // The click, as the service worker receives it (a system notification cannot be clicked from the DevTools protocol).
    const worker = context.serviceWorkers().find((w) => w.url() === `${run.base}/sw.js`) ?? (await context.waitForEvent('serviceworker'));
    await worker.evaluate(async () => {
      const sw = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(event: Event): boolean };
      const Click = (globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
      const [notification] = await sw.registration.getNotifications();
      sw.dispatchEvent(new Click('notificationclick', { notification }));
    });
    await page.waitForURL(`${run.base}/chats/${chatId}`);
    await page.getByText('Is my parcel on its way?').first().waitFor();
    await screenshot(page, 'pwa-notification-click-opens-chat');
    const left = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length);
    expect(left).toBe(0);
  });

  it('offers "Notify me on this device" in the alerts and lists the devices notified in Profile, each removable', async () => {
    const device = push.subscribe();
    expect((await api('POST', '/me/push-subscriptions', run.t.adminToken, { endpoint: device.endpoint, keys: device.keys })).statusCode).toBe(201);
    await page.goto(`${run.base}/profile`);
    await page.getByRole('button', { name: 'Notify me on this device' }).waitFor();
    const card = page.getByRole('region', { name: 'Devices notified' });
    await card.getByText('Chrome on Android').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'pwa-profile-devices');
    await card.getByRole('button', { name: 'Remove Chrome on Android' }).click();
    await card.getByText('No device yet').waitFor();
    expect((await api('GET', '/me/push-subscriptions', run.t.adminToken)).json()).toEqual({ subscriptions: [] });
  });

  it('registers a subscription the browser replaced (pushsubscriptionchange) in place of the old one', { timeout: 60_000 }, async () => {
    const endpoints = async () =>
      (await api('GET', '/me/push-subscriptions', run.t.adminToken)).json<{ subscriptions: { endpoint: string }[] }>().subscriptions.map((s) => s.endpoint);
    const old = push.subscribe();
    expect((await api('POST', '/me/push-subscriptions', run.t.adminToken, { endpoint: old.endpoint, keys: old.keys })).statusCode).toBe(201);
    await page.goto(`${run.base}/profile`);
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    const worker = context.serviceWorkers().find((w) => w.url() === `${run.base}/sw.js`) ?? (await context.waitForEvent('serviceworker'));
    /** The event as the browser fires it when its push service replaced the subscription (Chromium's own needs its vendor's push service). */
    const change = (from: string, to: { endpoint: string; keys: object }, withoutCookieStore: boolean) =>
      worker.evaluate(
        ({ from, to, withoutCookieStore }) => {
          const sw = self as unknown as { dispatchEvent(event: Event): boolean };
          if (withoutCookieStore) Object.defineProperty(self, 'cookieStore', { value: undefined, configurable: true });
          const event = new Event('pushsubscriptionchange');
          Object.defineProperty(event, 'oldSubscription', { value: { endpoint: from } });
          Object.defineProperty(event, 'newSubscription', { value: { endpoint: to.endpoint, toJSON: () => to } });
          sw.dispatchEvent(event);
        },
        { from, to: { endpoint: to.endpoint, keys: to.keys }, withoutCookieStore },
      );

    // The worker registers the new one itself, with the session's cookies and the CSRF cookie.
    const renewed = push.subscribe();
    await change(old.endpoint, renewed, false);
    await waitFor(async () => {
      const list = await endpoints();
      return list.includes(renewed.endpoint) && !list.includes(old.endpoint);
    }, 15_000);

    // A browser without cookieStore: the open app window registers it.
    const again = push.subscribe();
    await change(renewed.endpoint, again, true);
    await waitFor(async () => {
      const list = await endpoints();
      return list.includes(again.endpoint) && !list.includes(renewed.endpoint);
    }, 15_000);
    expect((await api('DELETE', '/me/push-subscriptions', run.t.adminToken, { endpoint: again.endpoint })).statusCode).toBe(204);
  });

  it('shows the "no connection" page when the server cannot be reached', async () => {
    await context.setOffline(true);
    try {
      await page.goto(`${run.base}/chats`);
      await page.getByRole('heading', { name: 'No connection' }).waitFor();
      await screenshot(page, 'pwa-offline');
    } finally {
      await context.setOffline(false);
    }
  });
});
