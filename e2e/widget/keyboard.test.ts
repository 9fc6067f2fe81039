/**
 * The widget with the keyboard alone, in real Chromium: a visitor tabs to
 * the launcher on the page, opens the chat with Enter (the focus goes to the
 * message field), sends a message, rates the chat, and closes the window
 * with Escape and with the minimize button; each time the focus comes back
 * to the launcher on the page. Every element the focus lands on shows it.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { screenshot } from '../helpers/browser.js';
import { focusStop, tabTo } from '../helpers/keyboard.js';
import { WidgetEnv } from './harness.js';

describe('widget: keyboard only (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  const frameOf = (page: Page): Frame => {
    const frame = page.frames().find((f) => f.url().includes('/widget/frame/'));
    if (!frame) throw new Error('no widget frame');
    return frame;
  };

  /** Whether the page's focus is on its launcher (inside #svc_chat_widget's shadow root). */
  const launcherFocused = (page: Page) => env.launcher(page).evaluate((b) => (b.getRootNode() as ShadowRoot).activeElement === b);

  it('opens, sends, rates and closes with the keyboard; the focus returns to the launcher', { timeout: 90_000 }, async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const launcher = env.launcher(page);
      await launcher.waitFor();
      await tabTo(page, launcher);
      await screenshot(page, 'keyboard-widget-launcher');
      await page.keyboard.press('Enter');

      const f = env.frame(page);
      const field = f.getByLabel('Message', { exact: true });
      await f.getByRole('dialog', { name: 'Chat' }).waitFor();
      // The visitor opened it: the focus is in the message field, ready to type.
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('Hello, can you help me?');
      await page.keyboard.press('Enter');
      await f.getByRole('log').getByText('Hello, can you help me?').waitFor();

      const chat = await env.chatOf(page, 'pending');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Of course!' })).status).toBe(201);
      await f.getByRole('log').getByText('Of course!').waitFor();

      // Rate: Tab through the window to "Good", Enter.
      const good = f.getByRole('group', { name: 'Rate this chat' }).getByRole('button', { name: 'Good' });
      await good.waitFor();
      await tabTo(page, good, { where: frameOf(page), back: true });
      await screenshot(page, 'keyboard-widget-rate');
      await page.keyboard.press('Enter');
      await waitFor(async () => (await env.api<{ rate: string | null }>('GET', `/api/v1/chats/${chat.id}`)).body.rate === 'positive');
      await expect.poll(() => good.getAttribute('aria-pressed')).toBe('true');

      // Escape closes the window from anywhere inside it, and the focus is back on the launcher.
      await page.keyboard.press('Escape');
      await f.getByRole('dialog').waitFor({ state: 'detached' });
      await expect.poll(() => launcherFocused(page)).toBe(true);
      const stop = await focusStop(page);
      expect(stop?.visible, stop?.what).toBe(true);

      // Open again with Enter, close with the minimize button.
      await page.keyboard.press('Enter');
      await f.getByRole('dialog', { name: 'Chat' }).waitFor();
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      await tabTo(page, f.getByRole('button', { name: 'Minimize the chat' }), { where: frameOf(page), back: true });
      await page.keyboard.press('Enter');
      await f.getByRole('dialog').waitFor({ state: 'detached' });
      await expect.poll(() => launcherFocused(page)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
