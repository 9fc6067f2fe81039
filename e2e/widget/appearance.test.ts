/**
 * Appearance and languages in real Chromium: the widget speaks the browser's
 * language (German here), or the one an admin fixed (Arabic, right to left);
 * the admin's texts, side, offsets and launcher style (a label, or a round
 * button) show on the page. Screenshots of each are saved in test-artifacts/.
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;

describe('widget appearance and languages (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  const appearance = async (a: Record<string, unknown>): Promise<void> => {
    const res = await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { appearance: a });
    expect(res.status).toBe(200);
  };
  const context = (locale: string): Promise<BrowserContext> => env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale });

  it("speaks the browser's language (German), the launcher a label", async () => {
    await appearance({ language: 'auto', launcher: 'label', position: 'right', offset_x: 16, offset_y: 16 });
    const ctx = await context('de-DE');
    try {
      const page = await env.open(ctx);
      const launcher = env.launcher(page, 'Chatten Sie mit uns');
      await launcher.waitFor();
      await screenshot(page, 'widget-launcher-label-de');
      await launcher.click();
      const frame = env.frame(page);
      await expect.poll(() => frame.getByRole('heading', { name: 'Kundenservice' }).isVisible()).toBe(true);
      expect(await frame.getByRole('button', { name: 'Senden' }).count()).toBe(1);
      expect(await frame.locator('html').getAttribute('lang')).toBe('de');
      // A send that fails says so in German too (the server's own sentences are English).
      await ctx.route('**/widget/api/*/messages', (route) => route.abort('internetdisconnected'));
      await frame.getByLabel('Nachricht').fill('Hallo?');
      await frame.getByRole('button', { name: 'Senden' }).click();
      await expect
        .poll(() => frame.getByRole('alert').first().textContent())
        .toBe('Nicht gesendet: Keine Verbindung; bitte versuchen Sie es erneut. Verwerfen');
      await ctx.unroute('**/widget/api/*/messages');
      await screenshot(page, 'widget-lang-de');
    } finally {
      await ctx.close();
    }
  });

  it('speaks the language fixed per widget (Arabic, right to left) whatever the browser says', async () => {
    await appearance({ language: 'ar' });
    const ctx = await context('en-US');
    try {
      const page = await env.open(ctx);
      const launcher = env.launcher(page, 'تحدث معنا');
      await launcher.waitFor();
      // The launcher's text runs right to left too (its icon at the start, on the right).
      expect(await launcher.evaluate((b) => getComputedStyle(b).direction)).toBe('rtl');
      await screenshot(page, 'widget-launcher-label-ar-rtl');
      await launcher.click();
      const frame = env.frame(page);
      await expect.poll(() => frame.getByRole('heading', { name: 'الدعم' }).isVisible()).toBe(true);
      expect(await frame.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await frame.locator('html').getAttribute('lang')).toBe('ar');
      await frame.getByLabel('الرسالة').fill('مرحبا، أين طلبي؟');
      await frame.getByRole('button', { name: 'إرسال' }).click();
      await expect.poll(() => frame.getByRole('log').getByText('مرحبا، أين طلبي؟').count()).toBe(1);
      // Agents are told the visitor sees the widget in Arabic.
      const arChat = await env.chatOf(page);
      expect((await env.api<{ visitor: { session: { language?: string } } }>('GET', `/api/v1/chats/${arChat.id}`)).body.visitor.session.language).toBe('ar');
      // Mirrored: the visitor's own message on the left, the send button left of the field, its arrow pointing left;
      // the time written the Arabic way (no AM/PM).
      const win = await frame.getByRole('dialog').boundingBox();
      const mine = await frame.locator('.msg.visitor').first().boundingBox();
      expect(mine!.x + mine!.width / 2).toBeLessThan(win!.x + win!.width / 2);
      const send = await frame.getByRole('button', { name: 'إرسال' }).boundingBox();
      const field = await frame.getByLabel('الرسالة').boundingBox();
      expect(send!.x).toBeLessThan(field!.x);
      expect(await frame.locator('.send svg').evaluate((svg) => getComputedStyle(svg).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
      expect(await frame.locator('.msg.visitor time').first().textContent()).not.toMatch(/AM|PM/);
      await screenshot(page, 'widget-lang-ar-rtl');
    } finally {
      await ctx.close();
      await appearance({ language: 'auto' });
    }
  });

  it("gives each message and agent name its own direction, and tells agents the widget's language (English widget, Arabic text)", async () => {
    await appearance({ language: 'auto' });
    const ctx = await context('en-US');
    try {
      const page = await env.open(ctx);
      await env.launcher(page).click();
      const frame = env.frame(page);
      const arabic = 'مرحبا، أين طلبي؟';
      await frame.getByLabel('Message').fill(arabic);
      await frame.getByRole('button', { name: 'Send' }).click();
      const mine = frame.locator('.msg.visitor p', { hasText: arabic });
      await mine.waitFor();
      expect(await frame.locator('html').getAttribute('dir')).toBe('ltr');
      expect(await mine.getAttribute('dir')).toBe('auto');
      expect(await mine.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
      // The question mark ends the sentence on its left, as Arabic is read.
      const [first, last] = await mine.evaluate((el) => {
        const node = el.firstChild as Text;
        const at = (i: number) => {
          const r = document.createRange();
          r.setStart(node, i);
          r.setEnd(node, i + 1);
          return r.getBoundingClientRect().left;
        };
        return [at(0), at(node.length - 1)];
      });
      expect(last).toBeLessThan(first);
      const chat = await env.chatOf(page);
      const visitor = (await env.api<{ visitor: { session: { language?: string } } }>('GET', `/api/v1/chats/${chat.id}`)).body.visitor;
      expect(visitor.session.language).toBe('en');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Hello! It ships today.' })).status).toBe(201);
      const reply = frame.locator('.msg.agent p', { hasText: 'Hello! It ships today.' });
      await reply.waitFor();
      expect(await reply.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      expect(
        await frame
          .locator('.msg.agent .who')
          .first()
          .evaluate((el) => el.tagName),
      ).toBe('BDI');
      await screenshot(page, 'widget-bidi-arabic-in-english');
    } finally {
      await ctx.close();
    }
  });

  it("shows the admin's texts, side, offsets and a round launcher (Russian browser)", async () => {
    await appearance({
      title: 'Магазин Acme',
      greeting: 'Здравствуйте! Чем можем помочь? https://acme.example/help',
      launcher: 'button',
      position: 'left',
      offset_x: 40,
      offset_y: 32,
      logo: null,
    });
    const ctx = await context('ru-RU');
    try {
      const page = await env.open(ctx);
      const launcher = env.launcher(page, 'Напишите нам');
      await launcher.waitFor();
      // Round: the icon alone (the text stays its accessible name), on the left, 40 px from the side and 32 from the bottom.
      const box = await launcher.boundingBox();
      expect(box).not.toBeNull();
      expect(Math.round(box!.x)).toBe(40);
      expect(Math.round(800 - box!.y - box!.height)).toBe(32);
      expect(Math.abs(box!.width - box!.height)).toBeLessThanOrEqual(1);
      await screenshot(page, 'widget-launcher-round-left-ru');
      await launcher.click();
      const frame = env.frame(page);
      await expect.poll(() => frame.getByRole('heading', { name: 'Магазин Acme' }).isVisible()).toBe(true);
      await expect.poll(() => frame.getByText('Здравствуйте! Чем можем помочь?').isVisible()).toBe(true);
      expect(await frame.getByRole('link', { name: 'https://acme.example/help' }).getAttribute('rel')).toBe('noopener noreferrer');
      // The window opens on the launcher's side.
      const win = await page.locator('iframe[title="Chat"]').boundingBox();
      expect(win!.x).toBeLessThan(100);
      await screenshot(page, 'widget-lang-ru-left');
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.close());
    } finally {
      await ctx.close();
      await appearance({ title: null, greeting: null, launcher: 'label', position: 'right', offset_x: 16, offset_y: 16 });
    }
  });
});
