/**
 * The agent app on a phone (#20): Chromium's mobile emulation at 375×812
 * (touch, a phone's user agent). The header is one row (Menu, connection,
 * status) and nothing is wider than the screen; the menu opens the whole
 * navigation and closes once a screen is chosen; an open chat fills the
 * screen with the composer in view, and stays readable and answerable when
 * the on-screen keyboard takes the lower part of the screen (emulated by
 * shrinking the viewport to what the keyboard leaves, which is what the
 * visual viewport reports on a phone). Screenshots: test-artifacts/phone-*.png.
 */
import { devices, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

const WIDTH = 375;
const HEIGHT = 812;
/** What a phone keyboard leaves of the 812 px screen. */
const WITH_KEYBOARD = 470;

describe.skipIf(!chromiumAvailable())('agent app on a phone (375 px, touch)', () => {
  let run: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const browserLog: string[] = [];
  let chatId = 0;

  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const box = async (l: Locator) => {
    const b = await l.boundingBox();
    if (!b) throw new Error('not rendered');
    return b;
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    const widget = await createWidget(run.t, { name: 'Shop' });
    const s = await startSession(run.t, widget.widget_id, { page: { url: 'https://shop.example.com/pricing', title: 'Pricing' } });
    for (let i = 1; i <= 14; i++) {
      const res = await visitorCall(run.t, widget.widget_id, s.visitor_token, 'messages', { type: 'text', text: `Question number ${i} about the yearly plan` });
      chatId = res.json<{ chat_id: number }>().chat_id;
    }
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      userAgent: devices['iPhone 13'].userAgent,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    page = await context.newPage();
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await run?.t.close();
  });

  it('fits the navigation: one header row, a Menu that opens every screen and closes on the choice', async () => {
    const menu = page.getByRole('button', { name: /Menu/ });
    await menu.waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    expect(await overflow()).toBeLessThanOrEqual(0);
    const header = await box(page.locator('header.header'));
    expect(header.height).toBeLessThan(64);
    expect(await page.getByRole('combobox', { name: 'My status' }).isVisible()).toBe(true);
    await screenshot(page, 'phone-inbox');

    await menu.tap();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Inbox', 'Archive', 'Offline messages', 'Calls', 'Reports', 'Profile', 'Admin']) {
      const link = nav.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(await link.isVisible(), name).toBe(true);
      const b = await box(link);
      expect(b.x + b.width, name).toBeLessThanOrEqual(WIDTH);
    }
    expect(await page.getByRole('button', { name: 'Sign out', exact: true }).isVisible()).toBe(true);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-menu');

    await nav.getByRole('link', { name: 'Archive' }).tap();
    await page.getByRole('heading', { name: 'Archive' }).waitFor();
    expect(await nav.isVisible()).toBe(false);
    expect(await overflow()).toBeLessThanOrEqual(0);
  });

  it('shows an open chat on the whole screen, the composer in view and the visitor panel folded', async () => {
    await page.goto(`${run.base}/chats/${chatId}`);
    await page
      .locator('.conversation-header')
      .getByRole('button', { name: /^Reply/ })
      .tap();
    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    const c = await box(page.getByRole('button', { name: 'Send' }));
    expect(c.y + c.height).toBeLessThanOrEqual(HEIGHT);
    // The newest message is in view (the list scrolls, the page does not).
    const last = page.locator('.message', { hasText: 'Question number 14' });
    const l = await box(last);
    expect(l.y + l.height).toBeLessThanOrEqual(c.y);
    expect(await page.locator('.visitor-panel details').getAttribute('open')).toBeNull();
    await screenshot(page, 'phone-chat');
    await page.locator('.visitor-panel summary').tap();
    await page.locator('.visitor-panel').getByRole('region', { name: 'Current page' }).getByRole('link', { name: 'Pricing' }).waitFor();
    await screenshot(page, 'phone-chat-visitor-panel');
    await page.locator('.visitor-panel summary').tap();
  });

  it('keeps the conversation and the composer above the on-screen keyboard, and sends the reply', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.tap();
    await page.setViewportSize({ width: WIDTH, height: WITH_KEYBOARD });
    await expect.poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--app-height'))).toBe(`${WITH_KEYBOARD}px`);
    await composer.fill('Yes: the yearly plan is 20% cheaper.');
    const send = page.getByRole('button', { name: 'Send' });
    const s = await box(send);
    expect(s.y + s.height).toBeLessThanOrEqual(WITH_KEYBOARD);
    expect((await box(composer)).y).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await screenshot(page, 'phone-chat-keyboard');
    await send.tap();
    const mine = page.locator('.message.agent', { hasText: 'the yearly plan is 20% cheaper' });
    await mine.waitFor();
    const m = await box(mine);
    expect(m.y).toBeGreaterThanOrEqual(0);
    expect(m.y + m.height).toBeLessThanOrEqual((await box(send)).y);
    const stored = await run.t.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(run.t.adminToken) });
    expect(stored.json<{ messages: Array<{ text?: string }> }>().messages.at(-1)?.text).toBe('Yes: the yearly plan is 20% cheaper.');
    await screenshot(page, 'phone-chat-keyboard-sent');
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  });
});
