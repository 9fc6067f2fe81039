/**
 * axe-core on every state of the widget, in real Chromium, in one
 * left-to-right (English) and one right-to-left (Arabic) language: the page
 * with the loader's launcher, the open chat, the contact form, the offline
 * form, the callback form and the rating. No violation of impact serious or
 * critical may remain; the moderate ones found are written to
 * test-artifacts/axe-widget.json (docs/ACCESSIBILITY.md lists each with why).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACTS, screenshot } from '../helpers/browser.js';
import { describeViolations, runAxe, type AxeViolation } from '../helpers/axe.js';
import { WidgetEnv } from './harness.js';

const TEXTS = {
  en: { contacts: 'Your contact details', callMe: 'Call me back', message: 'Message', send: 'Send', rate: 'Rate this chat' },
  ar: { contacts: 'بيانات الاتصال الخاصة بك', callMe: 'اتصلوا بي', message: 'الرسالة', send: 'إرسال', rate: 'قيّم هذه المحادثة' },
} as const;

type Lang = keyof typeof TEXTS;

describe('widget: axe-core finds no serious or critical violation (browser)', () => {
  let env: WidgetEnv;
  const found: Record<string, AxeViolation[]> = {};

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
    const res = await env.api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 3600, hours: null } });
    expect(res.status).toBe(200);
  });

  afterAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'axe-widget.json'), JSON.stringify(found, null, 2));
    await env?.close();
  });

  const frameOf = async (page: Page): Promise<Frame> => {
    await page.locator('iframe[title="Chat"]').waitFor({ state: 'attached' });
    const frame = page.frames().find((f) => f.url().includes('/widget/frame/'));
    if (!frame) throw new Error('no widget frame');
    return frame;
  };

  const check = async (name: string, where: Page | Frame, page: Page, include?: string): Promise<void> => {
    const report = await runAxe(where, include);
    found[name] = report.violations;
    await screenshot(page, `axe-widget-${name}`);
    expect(describeViolations(report.blocking), name).toEqual([]);
  };

  const setLanguage = async (language: Lang): Promise<void> => {
    expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { appearance: { language } })).status).toBe(200);
  };

  const launcher = (page: Page) => page.locator('#svc_chat_widget').getByRole('button').first();

  for (const lang of ['en', 'ar'] as const) {
    const L = TEXTS[lang];
    describe(`in ${lang === 'en' ? 'English (left to right)' : 'Arabic (right to left)'}`, () => {
      let ctx: BrowserContext;
      beforeAll(async () => {
        await setLanguage(lang);
      });
      // A new visitor for each test (the offline form shows only without an open chat).
      beforeEach(async () => {
        ctx = await env.context();
      });
      afterEach(async () => {
        await ctx?.close();
        await env.setAgentStatus('online');
      });

      it('the page with the launcher, the open chat, the contact and callback forms, and the rating', { timeout: 90_000 }, async () => {
        const page = await env.open(ctx, `/axe-${lang}`);
        await launcher(page).waitFor();
        // The host page is the test's, not the widget's: only the launcher the loader draws is judged there.
        await check(`${lang}-launcher`, page, page, '#svc_chat_widget');

        await launcher(page).click();
        const frame = await frameOf(page);
        const f = env.frame(page);
        await f.getByRole('dialog').waitFor();
        expect(await frame.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await check(`${lang}-chat`, frame, page);

        await f.getByLabel(L.message, { exact: true }).fill('Hello, is anyone there?');
        await f.getByRole('button', { name: L.send, exact: true }).click();
        await f.getByRole('log').getByText('Hello, is anyone there?').waitFor();
        await check(`${lang}-chat-messages`, frame, page);

        await f.getByRole('button', { name: L.contacts }).click();
        await f.getByRole('form', { name: L.contacts }).waitFor();
        await check(`${lang}-contact-form`, frame, page);
        await f.getByRole('form', { name: L.contacts }).getByRole('button').last().click();

        await f.getByRole('button', { name: L.callMe }).click();
        await f.getByRole('form', { name: L.callMe }).waitFor();
        await check(`${lang}-callback-form`, frame, page);
        await f.getByRole('form', { name: L.callMe }).getByRole('button').last().click();

        const chat = await env.chatOf(page);
        expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
        expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Yes, how can I help?' })).status).toBe(201);
        await f.getByRole('log').getByText('Yes, how can I help?').waitFor();
        await f.getByRole('group', { name: L.rate }).waitFor();
        await check(`${lang}-rating`, frame, page);
        expect((await env.api('POST', `/api/v1/chats/${chat.id}/finish`, {})).status).toBe(200);
        await f.getByRole('group', { name: L.rate }).getByRole('button').first().waitFor();
        await check(`${lang}-rating-finished`, frame, page);
      });

      it('the offline form', async () => {
        await env.setAgentStatus('offline');
        const page = await env.open(ctx, `/axe-offline-${lang}`);
        await launcher(page).click();
        const frame = await frameOf(page);
        await env.frame(page).getByRole('form').waitFor();
        await check(`${lang}-offline-form`, frame, page);
      });
    });
  }

  it('keeps its text readable on a light colour an admin picked (dark text on it, a darker shade of it as text on white)', async () => {
    await setLanguage('en');
    expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { color: '#ffeb3b' })).status).toBe(200);
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/axe-light');
      await launcher(page).waitFor();
      expect(await launcher(page).evaluate((b) => getComputedStyle(b).color)).toBe('rgb(31, 35, 40)');
      await check('en-light-launcher', page, page, '#svc_chat_widget');
      await launcher(page).click();
      const frame = await frameOf(page);
      const f = env.frame(page);
      await f.getByLabel('Message', { exact: true }).fill('Is this readable?');
      await f.getByRole('button', { name: 'Send', exact: true }).click();
      await f.getByRole('log').getByText('Is this readable?').waitFor();
      await check('en-light-chat', frame, page);
      expect(await f.locator('header').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(31, 35, 40)');
    } finally {
      await ctx.close();
      await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { color: null });
    }
  });

  it('honours reduced motion in the frame: no transition or animation lasts', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    try {
      const page = await env.open(ctx, '/axe-motion');
      await launcher(page).click();
      const f = env.frame(page);
      await f.getByRole('dialog').waitFor();
      const durations = await f.getByRole('button', { name: 'Send', exact: true }).evaluate((el) => {
        const cs = getComputedStyle(el);
        return [cs.transitionDuration, cs.animationDuration];
      });
      for (const d of durations) expect(parseFloat(d)).toBeLessThanOrEqual(0.00001);
    } finally {
      await ctx.close();
    }
  });
});
