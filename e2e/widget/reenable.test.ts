/**
 * A widget switched off and on again reaches the pages already open, in real Chromium: switched off it goes
 * (svc_onWidgetDestroy, nothing left on the page, svc_api answers failures), switched on it comes back by itself
 * within seconds (the loader asks every 15 s whether the frame is served again), without a reload: launcher,
 * svc_onLoadCallback, a working chat. The window keeps its place (its style now comes from the frame).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);
const api = (page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => (window as unknown as { svc_api: Api }).svc_api[f](...a), [fn, args] as const);

describe('widget re-enabled while pages are open (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('comes back on an open page, live, once switched on again', { timeout: 60_000 }, async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      await expect.poll(() => env.launcher(page).isVisible()).toBe(true);
      // The frame's style puts the iframe above the page, fixed, at the launcher's side.
      const style = await page.locator('iframe[title="Chat"]').getAttribute('style');
      expect(style).toMatch(/position: fixed/);
      expect(style).toMatch(/z-index: 2147483647/);
      expect(style).toMatch(/right: 0px/);

      expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { enabled: false })).status).toBe(200);
      await env.until(page, (c) => named(c, 'svc_onWidgetDestroy').length === 1, 5000);
      expect(await page.locator('#svc_chat_widget').count()).toBe(0);
      expect(await api(page, 'open')).toEqual({ result: 'fail', reason: 'The chat is not available: the widget was removed or disabled.' });

      const back = Date.now();
      expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { enabled: true })).status).toBe(200);
      await env.until(page, (c) => named(c, 'svc_onLoadCallback').length === 2, 25_000);
      expect(Date.now() - back).toBeLessThan(20_000);
      await expect.poll(() => env.launcher(page).isVisible()).toBe(true);
      expect(await api(page, 'chatMode')).toBe('online');
      expect(await page.locator('iframe[title="Chat"]').count()).toBe(1);

      // It works: the visitor writes, the agent sees it.
      await env.launcher(page).click();
      const frame = env.frame(page);
      await frame.getByLabel('Message').fill('Back again?');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByRole('log').getByText('Back again?').waitFor();
      const chat = await env.chatOf(page, 'pending');
      expect(chat.id).toBeGreaterThan(0);
      await screenshot(page, 'widget-reenabled');
    } finally {
      await ctx.close();
    }
  });
});
