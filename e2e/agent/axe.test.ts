/**
 * axe-core on every screen of the agent app, in real Chromium: sign-in, the
 * inbox, a chat with messages and its visitor panel, the archive, calls,
 * offline messages, reports, every admin page and the profile. No violation
 * of impact serious or critical may remain; the moderate ones found are
 * written to test-artifacts/axe-agent.json (docs/ACCESSIBILITY.md lists each
 * with why).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall } from '../../test/helpers/widget.js';
import { ARTIFACTS, chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { describeViolations, runAxe, type AxeViolation } from '../helpers/axe.js';
import { ADMIN_SECTIONS } from '../../web/agent/src/routes.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: axe-core finds no serious or critical violation', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];
  const found: Record<string, AxeViolation[]> = {};
  let chatId: number;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  const check = async (name: string): Promise<void> => {
    // The screen has loaded what it shows: no request in flight (the stream's socket aside).
    await page.waitForLoadState('networkidle');
    const report = await runAxe(page);
    found[name] = report.violations;
    await screenshot(page, `axe-agent-${name}`);
    expect(describeViolations(report.blocking), name).toEqual([]);
  };

  const visit = async (pathname: string, name: string): Promise<void> => {
    await page.goto(`${run.base}${pathname}`);
    await page.locator('.conn-live').waitFor();
    await page.locator('main h1, main h2').first().waitFor();
    await check(name);
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    const t = run.t;
    // Something on every screen: a chat channel's chat with messages, a widget visitor's
    // chat, offline message and callback request, a finished chat in the archive.
    const channel = await createChatChannel(t, { name: 'Support app' });
    await postInbound(t, channel, textMessage('vera-1', 'Hello, where is my order 1042?', { name: 'Vera Visitor' }));
    const pending = await waitFor(async () => (await api('GET', '/api/v1/chats')).json<Array<{ id: number }>>()[0]);
    chatId = pending.id;
    expect((await api('POST', `/api/v1/chats/${chatId}/accept`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'It ships today.' })).statusCode).toBe(201);
    await postInbound(t, channel, textMessage('vera-1', 'Thank you! https://example.com/order/1042', { name: 'Vera Visitor' }));
    await postInbound(t, channel, textMessage('otto-2', 'Do you ship to Oslo?', { name: 'Otto Other' }));

    const widget = await createWidget(t, { name: 'Shop site' });
    expect((await api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 600 } })).statusCode).toBe(200);
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Olga', email: 'olga@example.com', message: 'Do you ship to Norway?' });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    const done = await sendText(t, widget.widget_id, s.visitor_token, 'Just a quick question');
    await api('POST', `/api/v1/chats/${done.chat_id}/accept`);
    await api('POST', `/api/v1/chats/${done.chat_id}/finish`, {});

    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, log);
  });

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
  });

  afterAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'axe-agent.json'), JSON.stringify(found, null, 2));
    await browser?.close();
    await run?.t.close();
  });

  it('sign-in', async () => {
    await page.goto(`${run.base}/`);
    await page.locator('input[type="password"]').waitFor();
    await check('sign-in');
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it('inbox: waiting, mine, all active', { timeout: 60_000 }, async () => {
    await visit('/inbox/pending', 'inbox-pending');
    await visit('/inbox/mine', 'inbox-mine');
    await visit('/inbox/active', 'inbox-active');
  });

  it('a chat with messages, and its visitor panel', { timeout: 60_000 }, async () => {
    await visit(`/chats/${chatId}`, 'chat');
    await page.getByRole('log', { name: 'Messages' }).getByText('It ships today.').waitFor();
    await check('chat-with-messages');
    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.fill('/');
    await check('chat-canned-picker');
    await composer.fill('');
  });

  it('archive, calls, offline messages, reports, profile', { timeout: 90_000 }, async () => {
    await visit('/archive', 'archive');
    await visit('/calls', 'calls');
    await visit('/offline', 'offline-messages');
    await visit('/reports', 'reports');
    await visit('/profile', 'profile');
  });

  for (const section of ADMIN_SECTIONS) {
    it(`admin: ${section}`, async () => {
      await visit(`/admin/${section}`, `admin-${section}`);
    });
  }

  it('warns in the widget form when white text fails 4.5:1 on the picked colour, and the preview turns its text dark', async () => {
    await page.goto(`${run.base}/admin/channels`);
    await page.locator('.conn-live').waitFor();
    await page.getByRole('button', { name: 'Add website widget' }).click();
    const colour = page.getByLabel('Colour', { exact: true });
    await colour.waitFor();
    const warning = page.locator('.contrast-warning');
    await colour.fill('#1a73e8');
    await expect.poll(() => warning.textContent()).toBe('');
    await colour.fill('#ffeb3b');
    await expect.poll(() => warning.textContent()).toMatch(/White text on #ffeb3b has a contrast of 1\.\d:1, under the 4\.5:1 .* in dark grey instead/);
    // The colour input is described by the warning, so a screen reader reads it with the field.
    expect(await colour.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
    expect(await warning.getAttribute('aria-live')).toBe('polite');
    const preview = page.getByRole('img', { name: 'Preview of the widget' });
    expect(await preview.locator('strong').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(31, 35, 40)');
    await check('admin-channels-contrast-warning');
    await colour.fill('#0b57d0');
    await expect.poll(() => warning.textContent()).toBe('');
  });

  it('honours reduced motion: no transition or animation lasts', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      await page.goto(`${run.base}/inbox/pending`);
      await page.locator('.conn-live').waitFor();
      const durations = await page
        .locator('button')
        .first()
        .evaluate((el) => {
          const cs = getComputedStyle(el);
          return [cs.transitionDuration, cs.animationDuration];
        });
      for (const d of durations) expect(parseFloat(d)).toBeLessThanOrEqual(0.00001);
    } finally {
      await page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });
});
