/**
 * Presence, alerts and the first-run guide in a real browser against the real
 * app, in the order a new install lives them: the guide on an empty install,
 * ticked step by step and gone once done; the status an agent chose kept
 * across a reload and a new sign-in; an idle agent turned Away (the page's
 * clock fast-forwarded) and back on activity; a new chat alerting two agents
 * (sound and desktop notification recorded by stubs in an init script) until
 * one accepts it; the agent's alert settings on the Profile page; and a
 * refused admin save explained in words beside its button.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

/** Records every chime and desktop notification instead of making them (the page is "in the background"). */
const ALERT_SPY = `
  window.__alerts = [];
  HTMLAudioElement.prototype.play = function () { window.__alerts.push({ kind: 'play', volume: this.volume }); return Promise.resolve(); };
  class FakeNotification {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { this.title = title; this.tag = options && options.tag; window.__alerts.push({ kind: 'notify', title, tag: this.tag }); }
    close() { window.__alerts.push({ kind: 'close', tag: this.tag }); }
  }
  window.Notification = FakeNotification;
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true });
`;

interface Recorded {
  kind: 'play' | 'notify' | 'close';
  volume?: number;
  title?: string;
  tag?: string;
}

describe.skipIf(!chromiumAvailable())('agent app: presence, alerts, first-run guide', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let channel: ChatChannel;
  const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, token = run.t.adminToken) =>
    run.t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const statusOf = async (token = run.t.adminToken) => (await api('GET', '/api/v1/me', undefined, token)).json().status as string;
  const statusSelect = (p: Page) => p.getByRole('combobox', { name: 'My status' });
  const recorded = (p: Page) => p.evaluate(() => (window as unknown as { __alerts: Recorded[] }).__alerts);

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    collectBrowserLog(page, browserLog);
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the first-run guide on an empty install, ticks each step, and goes away once done', async () => {
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    const guide = page.getByRole('region', { name: /Get started/ });
    await guide.waitFor();
    // Opening the app made the admin Online (the default): that step is ticked already.
    await expect.poll(() => guide.locator('li[data-step="online"]').getAttribute('data-done')).toBe('true');
    expect(await guide.locator('li[data-step="channel"]').getAttribute('data-done')).toBe('false');
    expect(await guide.locator('li[data-step="snippet"]').getAttribute('data-done')).toBe('false');
    expect(await statusSelect(page).inputValue()).toBe('online');
    await screenshot(page, 'agent-first-run-guide');

    channel = await createChatChannel(run.t, { name: 'Support app' });
    await guide.getByRole('link', { name: 'Set up a widget' }).click();
    await expect.poll(() => guide.locator('li[data-step="channel"]').getAttribute('data-done')).toBe('true');
    expect(await guide.textContent()).toContain('one step left');
    await screenshot(page, 'agent-first-run-guide-channel-done');

    // The first visitor arrives: the last step is done and the guide goes.
    expect((await postInbound(run.t, channel, textMessage('first', 'Hello?'))).statusCode).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await guide.waitFor({ state: 'detached', timeout: 15_000 });
    // A chat arrived meanwhile: accept it so later tests start from an empty queue.
    const chats = (await api('GET', '/api/v1/chats?status=pending')).json<Array<{ id: number }>>();
    for (const c of chats) await api('POST', `/api/v1/chats/${c.id}/accept`);
  });

  it('keeps the status the agent chose across a reload and a new sign-in', async () => {
    await statusSelect(page).selectOption('away');
    await waitFor(async () => (await statusOf()) === 'away');
    await page.reload();
    await page.locator('.conn-live').waitFor();
    await page.waitForTimeout(500);
    expect(await statusSelect(page).inputValue()).toBe('away');
    expect(await statusOf()).toBe('away');

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForTimeout(500);
    expect(await statusSelect(page).inputValue()).toBe('away');
    expect(await statusOf()).toBe('away');

    await statusSelect(page).selectOption('online');
    await waitFor(async () => (await statusOf()) === 'online');
    await page.reload();
    await page.locator('.conn-live').waitFor();
    await expect.poll(() => statusSelect(page).inputValue()).toBe('online');
  });

  it('turns an idle agent Away after the account delay and back on activity', async () => {
    expect((await api('PUT', '/api/v1/settings', { presence: { away_after_idle_minutes: 2 } })).statusCode).toBe(200);
    const idleContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const idlePage = await idleContext.newPage();
    collectBrowserLog(idlePage, browserLog);
    try {
      await idlePage.clock.install();
      await signIn(idlePage, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
      await expect.poll(() => statusSelect(idlePage).inputValue()).toBe('online');
      // The other tab (the first page) is idle too here: nothing moves in either.
      await idlePage.clock.fastForward('02:10');
      await expect.poll(() => statusSelect(idlePage).inputValue(), { timeout: 10_000 }).toBe('away');
      expect(await statusOf()).toBe('away');
      await screenshot(idlePage, 'agent-idle-away');

      await idlePage.mouse.move(200, 200);
      await idlePage.mouse.move(260, 240);
      await expect.poll(() => statusSelect(idlePage).inputValue(), { timeout: 10_000 }).toBe('online');
      expect(await statusOf()).toBe('online');
    } finally {
      await idleContext.close();
      await api('PUT', '/api/v1/settings', { presence: { away_after_idle_minutes: 0 } });
    }
  });

  it('alerts every eligible agent of a new chat until one accepts it', async () => {
    const bob = await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    expect((await api('PUT', '/api/v1/me/notifications', { volume: 30 }, bob.token)).statusCode).toBe(200);
    const pages: Page[] = [];
    const contexts: BrowserContext[] = [];
    try {
      for (const [email, password] of [
        [ADMIN_EMAIL, ADMIN_PASSWORD],
        ['bob@example.com', 'agent-password-1'],
      ]) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
        await ctx.addInitScript(ALERT_SPY);
        const p = await ctx.newPage();
        collectBrowserLog(p, browserLog);
        await signIn(p, run.base, email, password);
        await expect.poll(() => statusSelect(p).inputValue()).toBe('online');
        contexts.push(ctx);
        pages.push(p);
      }

      expect((await postInbound(run.t, channel, textMessage('ring-1', 'Is anyone there?', { name: 'Rita Ringer' }))).statusCode).toBe(200);
      const chat = await waitFor(async () => (await api('GET', '/api/v1/chats?status=pending')).json<Array<{ id: number }>>()[0]);
      const tag = `chat-${chat.id}`;
      // Both agents hear it and see a desktop notification, and it rings again while nobody accepts.
      for (const p of pages) {
        await expect.poll(async () => (await recorded(p)).filter((r) => r.kind === 'notify' && r.tag === tag).length, { timeout: 10_000 }).toBe(1);
        await expect.poll(async () => (await recorded(p)).filter((r) => r.kind === 'play').length, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);
      }
      expect((await recorded(pages[0])).find((r) => r.kind === 'notify')?.title).toBe('New chat');
      // Each at its own volume: the admin's default 80, Bob's 30.
      expect((await recorded(pages[0])).find((r) => r.kind === 'play')?.volume).toBeCloseTo(0.8);
      expect((await recorded(pages[1])).find((r) => r.kind === 'play')?.volume).toBeCloseTo(0.3);
      await screenshot(pages[1], 'agent-new-chat-ringing');

      // Bob accepts: the ringing and the notification stop for everyone.
      // Reply (in the Waiting list) accepts.
      await pages[1].getByRole('button', { name: 'Reply' }).first().click();
      await waitFor(async () => (await api('GET', `/api/v1/chats/${chat.id}`)).json().status === 'active');
      for (const p of pages) {
        await expect.poll(async () => (await recorded(p)).some((r) => r.kind === 'close' && r.tag === tag), { timeout: 10_000 }).toBe(true);
      }
      const plays = await Promise.all(pages.map(async (p) => (await recorded(p)).filter((r) => r.kind === 'play').length));
      await new Promise((r) => setTimeout(r, 6500));
      expect(await Promise.all(pages.map(async (p) => (await recorded(p)).filter((r) => r.kind === 'play').length))).toEqual(plays);

      // Bob mutes his alerts on the Profile page: the next chat rings only for the admin.
      const bobPage = pages[1];
      await bobPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
      const form = bobPage.getByRole('form', { name: 'Alerts' });
      await form.getByLabel('Mute every alert').check();
      await form.getByRole('button', { name: 'Save alerts' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved: every alert is muted.' }).waitFor();
      expect((await api('GET', '/api/v1/me/notifications', undefined, bob.token)).json().muted).toBe(true);
      await screenshot(bobPage, 'agent-profile-alerts');
      const before = await Promise.all(pages.map(async (p) => (await recorded(p)).filter((r) => r.kind === 'notify').length));
      expect((await postInbound(run.t, channel, textMessage('ring-2', 'Hello again', { name: 'Second Caller' }))).statusCode).toBe(200);
      await expect.poll(async () => (await recorded(pages[0])).filter((r) => r.kind === 'notify').length, { timeout: 10_000 }).toBe(before[0] + 1);
      await bobPage.waitForTimeout(1000);
      expect((await recorded(bobPage)).filter((r) => r.kind === 'notify').length).toBe(before[1]);
    } finally {
      for (const c of contexts) await c.close();
    }
  }, 90_000);

  it('explains a refused admin save in words, beside its button', async () => {
    await context.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto(`${run.base}/admin/settings`);
    const callbacks = page.getByRole('form', { name: 'Callbacks' });
    await callbacks.getByLabel('Always open').uncheck();
    await callbacks.getByLabel('Monday').fill('9-17:30');
    await callbacks.getByRole('button', { name: 'Save callback settings' }).click();
    const actions = callbacks.locator('.form-actions');
    const alert = actions.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Monday: opening hours must look like 09:00–17:30, the start before the end; separate several ranges with commas.');
    // The API keeps its precise wording for programs.
    const raw = await api('PUT', '/api/v1/settings', { callback: { hours: { mon: [['9', '17:30']] } } });
    expect(raw.json().error.message).toMatch(/^callback\.hours\.mon\[0\] must be a range/);
    // Beside the button, on screen: not at the top of the long page.
    const button = await callbacks.getByRole('button', { name: 'Save callback settings' }).boundingBox();
    const box = await alert.boundingBox();
    expect(button && box).toBeTruthy();
    expect(Math.abs(box!.y - button!.y)).toBeLessThan(80);
    // Both in the viewport (boundingBox is relative to it) where the click left the page.
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(860);
    await alert.scrollIntoViewIfNeeded();
    await callbacks.screenshot({ path: 'test-artifacts/agent-admin-callback-refused.png' });

    // Fixed, the same place says it worked.
    await callbacks.getByLabel('Monday').fill('09:00-17:30');
    await callbacks.getByRole('button', { name: 'Save callback settings' }).click();
    await actions.getByRole('status').filter({ hasText: 'Callback settings saved' }).waitFor();
    expect(await actions.getByRole('alert').count()).toBe(0);

    // The presence settings: a refusal in words too, beside their own button.
    const presence = page.getByRole('form', { name: "Agents' status" });
    await presence.getByLabel('Status of agents who never chose one').selectOption('offline');
    await presence.getByRole('button', { name: 'Save status settings' }).click();
    await presence.getByRole('status').filter({ hasText: 'Saved: new agents start Offline; agents stay Online while idle.' }).waitFor();
    expect((await api('GET', '/api/v1/settings')).json().presence).toEqual({ default_status: 'offline', away_after_idle_minutes: 0 });
  });
});
