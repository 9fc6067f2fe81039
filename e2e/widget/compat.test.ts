/**
 * Pages written for the original service, in real Chromium (issue #18,
 * compatibility 1–6): the snippet's address without `.js`, an unknown id
 * named on the console; a page with its own launcher that hides
 * `#svc_chat_widget` with CSS and opens the chat from its own button (clicked
 * through the real mouse path), and the admin's "hide the default launcher";
 * a deleted or disabled widget leaving open pages within seconds; startCall
 * after a call ended; svc_config, svc_destroy and svc_init; the published
 * svc-api.d.ts covering every function the loader defines.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);
const api = (page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => (window as unknown as { svc_api: Api }).svc_api[f](...a), [fn, args] as const);

/** A page's own launcher: a fixed button exactly where the default launcher sits, opening the chat with svc_api.open(). */
const OWN_BUTTON = `<button id="own" type="button" style="position:fixed;right:16px;bottom:16px;width:150px;height:48px;z-index:10"
  onclick="window.__ownClicks = (window.__ownClicks || 0) + 1; svc_api.open()">Talk to us</button>`;
const HIDE_LAUNCHER_CSS = '<style>#svc_chat_widget { display: none; }</style>';

describe('widget compatibility with pages written for the original (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  const newWidget = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await env.api<{ id: number; widget_id: string; install_snippet: string }>('POST', '/api/v1/channels', { type: 'widget', name, ...extra });
    expect(res.status).toBe(201);
    return res.body;
  };

  it("loads from the original snippet's address form, without .js, and names an unknown id on the console", async () => {
    const ctx = await env.context();
    try {
      const host = env.base.replace(/^http:/, '');
      const page = await env.open(ctx, '/no-js', { snippet: `<script src="${host}/widget/${env.channel.widget_id}" async></script>` });
      expect(await api(page, 'chatMode')).toBe('online');

      const other = await ctx.newPage();
      const lines: string[] = [];
      other.on('console', (m: ConsoleMessage) => lines.push(`${m.type()}: ${m.text()}`));
      await other.goto(env.hostPage('/unknown', { snippet: `<script src="${host}/widget/nosuchwidget42" async></script>` }));
      await expect.poll(() => lines.filter((l) => l.includes('nosuchwidget42'))).toHaveLength(1);
      expect(lines.find((l) => l.includes('nosuchwidget42'))).toMatch(/^warning: Parley: there is no chat widget "nosuchwidget42"/);
      expect(await other.evaluate(() => typeof (window as unknown as { svc_api?: unknown }).svc_api)).toBe('undefined');
    } finally {
      await ctx.close();
    }
  });

  it('lets a page hide #svc_chat_widget and open the chat from its own button, clicked with the mouse', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/own-launcher', { head: HIDE_LAUNCHER_CSS, snippet: `${env.channel.install_snippet}${OWN_BUTTON}` });
      // The default launcher is in #svc_chat_widget, hidden by the page; nothing of Parley covers the page's button.
      expect(await page.locator('#svc_chat_widget').count()).toBe(1);
      expect(await env.launcher(page).isVisible()).toBe(false);
      const box = await page.locator('#own').boundingBox();
      if (!box) throw new Error('no own button');
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      expect(await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.id, [x, y])).toBe('own');
      await screenshot(page, 'widget-own-launcher');
      await page.mouse.click(x, y);
      expect(await page.evaluate(() => (window as unknown as { __ownClicks?: number }).__ownClicks)).toBe(1);
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      await screenshot(page, 'widget-own-launcher-open');
      // Minimized again: the page's button takes clicks again.
      await env.frame(page).getByRole('button', { name: 'Minimize the chat' }).click();
      await env.until(page, (c) => named(c, 'svc_onClose').length === 1);
      await expect.poll(() => page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.id, [x, y])).toBe('own');
      await page.mouse.click(x, y);
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 2);
    } finally {
      await ctx.close();
    }
  });

  it('opens the chat from the default launcher in #svc_chat_widget with the mouse', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/default-launcher');
      const launcher = env.launcher(page);
      await expect.poll(() => launcher.isVisible()).toBe(true);
      expect(await page.evaluate(() => document.querySelector('#svc_chat_widget iframe'))).toBeNull();
      const box = await launcher.boundingBox();
      if (!box) throw new Error('no launcher');
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      // The visitor pressed the launcher: the keyboard focus is in the window's message field.
      await expect
        .poll(() =>
          env
            .frame(page)
            .getByLabel('Message')
            .evaluate((el) => el === document.activeElement),
        )
        .toBe(true);
      expect(await launcher.isVisible()).toBe(false);
    } finally {
      await ctx.close();
    }
  });

  it('hides the default launcher when an admin says so, and open() still opens the chat', async () => {
    const made = await newWidget('Own button site', { hide_launcher: true });
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/admin-hidden', { snippet: `${made.install_snippet}${OWN_BUTTON}` });
      expect(await page.locator('#svc_chat_widget button').count()).toBe(1);
      expect(await page.locator('#svc_chat_widget button').isVisible()).toBe(false);
      const box = await page.locator('#own').boundingBox();
      if (!box) throw new Error('no own button');
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      // Turned off again: the launcher is back on the next page.
      expect((await env.api('PATCH', `/api/v1/channels/${made.id}`, { hide_launcher: false })).body).toMatchObject({ hide_launcher: false });
      const next = await env.open(ctx, '/admin-shown', { snippet: made.install_snippet });
      await api(next, 'close');
      await expect.poll(() => env.launcher(next).isVisible()).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  for (const how of ['deleted', 'disabled'] as const) {
    it(`tells open pages within seconds when the widget is ${how}: svc_onWidgetDestroy, the widget goes, svc_api answers failures`, async () => {
      const made = await newWidget(`Short-lived (${how})`);
      const ctx = await env.context();
      try {
        const page = await env.open(ctx, `/${how}`, { snippet: made.install_snippet });
        await expect.poll(() => env.launcher(page).isVisible()).toBe(true);
        const started = Date.now();
        const res =
          how === 'deleted'
            ? await env.api('DELETE', `/api/v1/channels/${made.id}`)
            : await env.api('PATCH', `/api/v1/channels/${made.id}`, { enabled: false });
        expect(res.status).toBeLessThan(300);
        await env.until(page, (c) => named(c, 'svc_onWidgetDestroy').length === 1, 5000);
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await page.locator('#svc_chat_widget').count()).toBe(0);
        expect(await page.locator('iframe[title="Chat"]').count()).toBe(0);
        const reason = 'The chat is not available: the widget was removed or disabled.';
        expect(await api(page, 'sendOfflineMessage', { message: 'hello?' })).toEqual({ result: 'fail', error: reason });
        expect(await api(page, 'open')).toEqual({ result: 'fail', reason });
        expect(await api(page, 'setCustomData', [])).toEqual({ result: 'fail', reason });
        expect(await api(page, 'startCall', '+15550100199')).toEqual({ result: 'fail', reason });
        expect(await api(page, 'chatMode')).toBe('offline');
        expect(await page.evaluate(() => new Promise((resolve) => (window as unknown as { svc_api: Api }).svc_api.isCallbackEnabled(resolve)))).toEqual({
          result: 'fail',
          reason,
        });
        // Nothing was stored for the widget.
        const offline = await env.api<Array<{ message: string }>>('GET', '/api/v1/offline-messages');
        expect(offline.body.some((m) => m.message === 'hello?')).toBe(false);
        if (how === 'disabled') {
          // A new page view finds nothing either (its cached loader's frame is refused), and the console says why.
          const again = await ctx.newPage();
          const lines: string[] = [];
          again.on('console', (m: ConsoleMessage) => lines.push(m.text()));
          await again.goto(env.hostPage('/disabled-again', { snippet: made.install_snippet }));
          await expect.poll(() => lines.filter((l) => l.includes(made.widget_id))).toHaveLength(1);
          expect(lines.find((l) => l.includes(made.widget_id))).toMatch(/removed or disabled/);
          expect(await env.api('PATCH', `/api/v1/channels/${made.id}`, { enabled: true })).toMatchObject({ body: { enabled: true } });
          const back = await env.open(ctx, '/enabled-again', { snippet: made.install_snippet });
          expect(await api(back, 'chatMode')).toBe('online');
        }
      } finally {
        await ctx.close();
      }
    });
  }

  it('sendOfflineMessage answers ok only for a message that gets stored: kept through a network failure, a fail once the server limits', async () => {
    const ctx = await env.context();
    const stored = async (text: string) =>
      (await env.api<Array<{ message: string }>>('GET', '/api/v1/offline-messages')).body.filter((m) => m.message.startsWith(text)).length;
    try {
      // The first try of the frame's request fails on the network: the message is kept and sent again.
      let refused = 0;
      await ctx.route('**/widget/api/*/offline', (route) => (refused++ === 0 ? route.abort('connectionreset') : route.continue()));
      const page = await env.open(ctx, '/offline-network');
      expect(await api(page, 'sendOfflineMessage', { email: 'ann@example.com', message: 'Through a bad network' })).toEqual({ result: 'ok' });
      await expect.poll(() => stored('Through a bad network'), { timeout: 10_000 }).toBe(1);
      expect(refused).toBe(2);
      await ctx.unroute('**/widget/api/*/offline');

      // The visitor's limit (5 in 10 minutes): the sixth was answered ok before the server said no, so it stays in the
      // browser to be sent later; from then on the page is told at once, and nothing more is kept.
      const other = await env.context();
      const many = await env.open(other, '/offline-many');
      for (let i = 1; i <= 6; i++) expect(await api(many, 'sendOfflineMessage', { message: `Many ${i}` })).toEqual({ result: 'ok' });
      const limited = { result: 'fail', error: 'You are sending offline messages too quickly; please wait a moment and try again.' };
      // Asked with an empty message (refused on the spot, never kept) until the server's verdict reached the page.
      await expect.poll(() => api(many, 'sendOfflineMessage', { message: '' }), { timeout: 10_000 }).toEqual(limited);
      expect(await api(many, 'sendOfflineMessage', { message: 'Many 7' })).toEqual(limited);
      expect(await stored('Many')).toBe(5);
      const kept = await many
        .frameLocator('iframe[title="Chat"]')
        .locator('html')
        .evaluate((_, id) => JSON.parse(localStorage.getItem(`parley.${id}.outbox`) ?? '[]') as Array<{ message: string }>, env.channel.widget_id);
      expect(kept.map((m) => m.message)).toEqual(['Many 6']);
      await other.close();
    } finally {
      await ctx.close();
    }
  });

  it('answers startCall from fresh state after a call ends, without isCallbackEnabled first', async () => {
    expect((await env.api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 3600, hours: null } })).status).toBe(200);
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/calls');
      expect(await api(page, 'startCall', '+1 555 010 0142')).toEqual({ result: 'ok' });
      await env.until(page, (c) => named(c, 'svc_onCallStart').length === 1);
      // Asked during the call, the server says no (a call is under way): that verdict must not outlive the call.
      expect(await page.evaluate(() => new Promise((resolve) => (window as unknown as { svc_api: Api }).svc_api.isCallbackEnabled(resolve)))).toEqual({
        result: 'fail',
        reason: 'Callback unavaiable',
      });
      const call = await waitFor(async () => {
        const res = await env.api<Array<{ id: number; phone: string }>>('GET', '/api/v1/calls');
        return res.body.find((c) => c.phone === '+15550100142') ?? null;
      });
      // The frame asks for availability again once the call ends; that answer is slow here, so startCall must not wait
      // for it nor answer from the verdict given during the call.
      await ctx.route('**/widget/api/*/callback', async (route) => {
        if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 2000));
        await route.continue();
      });
      expect((await env.api('POST', `/api/v1/calls/${call.id}/status`, { status: 'end' })).status).toBe(200);
      await env.until(page, (c) => named(c, 'svc_onCallEnd').length === 1);
      expect(await api(page, 'startCall', '+1 555 010 0143')).toEqual({ result: 'ok' });
      await env.until(page, (c) => named(c, 'svc_onCallStart').length === 2);
    } finally {
      await env.api('PUT', '/api/v1/settings', { callback: { enabled: false } });
      await ctx.close();
    }
  });

  it('keeps svc_config live, and svc_destroy / svc_init (or the script again) remove and bring back the widget', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/spa');
      const config = () => page.evaluate(() => (window as unknown as { svc_config?: unknown }).svc_config);
      expect(await config()).toEqual({ widget_id: env.channel.widget_id, chat_mode: 'online', widget_color: '#1a73e8' });
      await env.setAgentStatus('offline');
      await expect.poll(config, { timeout: 10_000 }).toEqual({ widget_id: env.channel.widget_id, chat_mode: 'offline', widget_color: '#1a73e8' });
      await env.setAgentStatus('online');
      await expect.poll(config, { timeout: 10_000 }).toEqual({ widget_id: env.channel.widget_id, chat_mode: 'online', widget_color: '#1a73e8' });

      await page.evaluate(() => (window as unknown as { svc_destroy(): void }).svc_destroy());
      expect(await page.locator('#svc_chat_widget').count()).toBe(0);
      expect(await page.locator('iframe[title="Chat"]').count()).toBe(0);
      expect(await config()).toBeUndefined();
      expect(await api(page, 'open')).toEqual({ result: 'fail', reason: 'Removed by svc_destroy().' });

      await page.evaluate(() => (window as unknown as { svc_init(): void }).svc_init());
      await env.until(page, (c) => named(c, 'svc_onLoadCallback').length === 2);
      expect(await page.locator('#svc_chat_widget').count()).toBe(1);
      await api(page, 'open');
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      // svc_init while it runs adds nothing.
      await page.evaluate(() => (window as unknown as { svc_init(): void }).svc_init());
      expect(await page.locator('iframe[title="Chat"]').count()).toBe(1);

      // A single-page app removing the widget and adding the script again.
      await page.evaluate(() => (window as unknown as { svc_destroy(): void }).svc_destroy());
      await page.evaluate((src) => {
        const s = document.createElement('script');
        s.src = src;
        document.body.appendChild(s);
      }, `${env.base}/widget/${env.channel.widget_id}.js`);
      await env.until(page, (c) => named(c, 'svc_onLoadCallback').length === 3);
      expect(await page.locator('#svc_chat_widget').count()).toBe(1);
      expect(await page.locator('iframe[title="Chat"]').count()).toBe(1);
      expect(await config()).toEqual({ widget_id: env.channel.widget_id, chat_mode: 'online', widget_color: '#1a73e8' });
    } finally {
      await env.setAgentStatus('online');
      await ctx.close();
    }
  });

  it('publishes svc-api.d.ts at /widget/svc-api.d.ts, declaring every function the loader defines', async () => {
    const file = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/widget/svc-api.d.ts'), 'utf8');
    const res = await fetch(`${env.base}/widget/svc-api.d.ts`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(file);
    const body = /interface Api \{([\s\S]*?)\n {2}\}/.exec(file)?.[1] ?? '';
    const declared = [...body.matchAll(/^\s+(\w+)\(/gm)].map((m) => m[1]).sort();
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/types');
      const defined = await page.evaluate(() => Object.keys((window as unknown as { svc_api: Api }).svc_api).sort());
      expect(declared).toEqual(defined);
      const globals = await page.evaluate(() => ['svc_init', 'svc_destroy'].map((n) => typeof (window as unknown as Record<string, unknown>)[n]));
      expect(globals).toEqual(['function', 'function']);
    } finally {
      await ctx.close();
    }
  });
});
