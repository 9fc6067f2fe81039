/**
 * Real integrations written for the original service, in real Chromium
 * (issue 32, items 8–12): open() and close() answer {result} in every state
 * (before the widget is ready, offline, already open or closed, gone); the
 * original's older snippet `/script/widget/<id>` loads the widget;
 * svc_config.widget_color holds the channel's colour from the start and
 * follows setWidgetColor; setCustomData with more than 10 fields says how
 * many it left out, and only the first 10 reach the server.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);
const api = (page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => (window as unknown as { svc_api: Api }).svc_api[f](...a), [fn, args] as const);
const config = (page: Page) => page.evaluate(() => (window as unknown as { svc_config?: Record<string, unknown> }).svc_config);
const OK = { result: 'ok' };

describe('integrations written for the original service (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  it('open() and close() answer {result: "ok"} before the widget is ready, when already open or closed, and a failure once it is gone', async () => {
    const ctx = await env.context();
    try {
      // The original's own sample, run as soon as the loader has run (the frame is not ready yet).
      const page = await env.open(ctx, '/open-early', {
        onLoaderLoad: `var r = svc_api.open();
          window.__early = { answer: r, ready: window.__calls.some(function (c) { return c.name === 'svc_onLoadCallback'; }) };
          if (r.result === 'fail') window.__early.failed = true;`,
      });
      expect(await page.evaluate(() => (window as unknown as { __early: unknown }).__early)).toEqual({ answer: OK, ready: false });
      // The queued call still opened the window.
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      expect(await api(page, 'open')).toEqual(OK);
      expect(await api(page, 'open', { start: 'call' })).toEqual(OK);
      expect(await api(page, 'close')).toEqual(OK);
      await env.until(page, (c) => named(c, 'svc_onClose').length === 1);
      // Already closed: nothing to do, still ok.
      expect(await api(page, 'close')).toEqual(OK);

      await page.evaluate(() => (window as unknown as { svc_destroy(): void }).svc_destroy());
      const gone = { result: 'fail', reason: 'Removed by svc_destroy().' };
      expect(await api(page, 'open')).toEqual(gone);
      expect(await api(page, 'close')).toEqual(gone);
    } finally {
      await ctx.close();
    }
  });

  it('open() answers ok while nobody is online (the window opens on the offline form)', async () => {
    await env.setAgentStatus('offline');
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/open-offline');
      expect(await api(page, 'chatMode')).toBe('offline');
      expect(await api(page, 'open')).toEqual(OK);
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      expect(await api(page, 'close')).toEqual(OK);
    } finally {
      await env.setAgentStatus('online');
      await ctx.close();
    }
  });

  it("loads from the original's older snippet address /script/widget/<id>, with or without .js and a query string", async () => {
    const ctx = await env.context();
    try {
      const host = env.base.replace(/^http:/, '');
      for (const [path, src] of [
        ['/classic', `${host}/script/widget/${env.channel.widget_id}`],
        ['/classic-js', `${env.base}/script/widget/${env.channel.widget_id}.js?v=2`],
      ]) {
        const page = await env.open(ctx, path, { snippet: `<script src="${src}" async></script>` });
        expect(await api(page, 'chatMode')).toBe('online');
        expect(await page.locator('iframe[title="Chat"]').count()).toBe(1);
        await page.close();
      }
    } finally {
      await ctx.close();
    }
  });

  it("svc_config.widget_color holds the channel's colour from the start, the default without one, and follows setWidgetColor", async () => {
    const made = await env.api<{ widget_id: string; install_snippet: string }>('POST', '/api/v1/channels', {
      type: 'widget',
      name: 'Orange',
      color: '#ff5500',
    });
    expect(made.status).toBe(201);
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/orange', {
        snippet: made.body.install_snippet,
        onLoaderLoad: 'window.__earlyColor = window.svc_config && window.svc_config.widget_color;',
      });
      expect(await page.evaluate(() => (window as unknown as { __earlyColor?: string }).__earlyColor)).toBe('#ff5500');
      expect(await config(page)).toEqual({ widget_id: made.body.widget_id, chat_mode: 'online', widget_color: '#ff5500' });
      // The page colours its own launcher with it: the same colour as the widget's own.
      await expect.poll(() => env.launcher(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 85, 0)');
      await api(page, 'setWidgetColor', '#00aa00');
      await expect.poll(async () => (await config(page))?.widget_color).toBe('#00aa00');

      const plain = await env.open(ctx, '/plain');
      expect((await config(plain))?.widget_color).toBe('#1a73e8');
    } finally {
      await ctx.close();
    }
  });

  it('setCustomData with more than 10 fields answers how many it dropped, and only the first 10 reach the server', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/custom');
      const fields = (n: number, name: string) => Array.from({ length: n }, (_, i) => ({ title: `${name} ${i + 1}`, content: String(i + 1) }));
      expect(await api(page, 'setCustomData', fields(10, 'Ten'))).toEqual(OK);
      expect(await api(page, 'setCustomData', fields(12, 'Twelve'))).toEqual({ result: 'ok', dropped: 2 });
      expect(await api(page, 'setCustomData', { title: 'x' })).toEqual({ result: 'fail', reason: 'Custom data must be array.' });
      const number = await env.visitorNumber(page);
      const stored = await waitFor(async () => {
        const v = await env.t.app.ctx.db.selectFrom('visitors').select('session_json').where('number', '=', number).executeTakeFirst();
        const custom = (JSON.parse(v?.session_json ?? '{}') as { custom_data?: Array<{ title: string }> }).custom_data;
        return custom?.[0]?.title === 'Twelve 1' ? custom : null;
      });
      expect(stored.map((f) => f.title)).toEqual(fields(10, 'Twelve').map((f) => f.title));
    } finally {
      await ctx.close();
    }
  });
});
