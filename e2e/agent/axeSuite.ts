/**
 * axe-core on every screen of the agent app, in real Chromium, in one
 * language: sign-in, the inbox, a chat with messages and its visitor panel,
 * the archive, calls, offline messages, reports, every admin page and the
 * profile. No violation of impact serious or critical may remain; the
 * moderate ones found are written to test-artifacts/axe-agent(-<lang>).json
 * (docs/ACCESSIBILITY.md lists each with why). axe.test.ts runs it in
 * English (left to right), axeRtl.test.ts in Arabic (right to left): the
 * browser's language for the sign-in page, the agent's choice after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall } from '../../test/helpers/widget.js';
import { ARTIFACTS, chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { describeViolations, runAxe, type AxeViolation } from '../helpers/axe.js';
import { ADMIN_SECTIONS } from '../../web/agent/src/routes.js';
import { en } from '../../web/agent/src/i18n/en/index.js';
import * as ar from '../../web/agent/src/i18n/ar/index.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, startApp, type RunningApp } from './harness.js';

/** What a test of the suite's file adds after the screens: the page, signed in, in the suite's language. */
export interface AxeSuite {
  run: () => RunningApp;
  page: () => Page;
  check: (name: string) => Promise<void>;
}

/** The app's own words in the suite's language, so the screens are found by what a person reads. */
const WORDS = { en, ar: { ...ar.common, ...ar.workspace, ...ar.pages } } as const;

export const axeAvailable = chromiumAvailable;

/** Defines the suite's tests inside the caller's describe; `lang` is the browser's language and the agent's choice. */
export function axeSuite(lang: 'en' | 'ar'): AxeSuite {
  const words = WORDS[lang];
  const suffix = lang === 'en' ? '' : `-${lang}`;
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
    await screenshot(page, `axe-agent${suffix}-${name}`);
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
    if (lang !== 'en')
      expect((await run.t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(run.t.adminToken), payload: { language: lang } })).statusCode).toBe(
        200,
      );
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: lang });
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, log);
  });

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
  });

  afterAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, `axe-agent${suffix}.json`), JSON.stringify(found, null, 2));
    await browser?.close();
    await run?.t.close();
  });

  it('sign-in', async () => {
    await page.goto(`${run.base}/`);
    await page.locator('input[type="password"]').waitFor();
    await check('sign-in');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, lang === 'ar' ? 'rtl' : 'ltr']);
    await page.locator('input[type="email"][name="email"]').fill(ADMIN_EMAIL);
    await page.locator('input[type="password"][name="password"]').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: words['pages.login.signIn'] }).click();
    await page.locator('.conn-live').waitFor();
  });

  it('inbox: waiting, mine, all active', { timeout: 60_000 }, async () => {
    await visit('/inbox/pending', 'inbox-pending');
    await visit('/inbox/mine', 'inbox-mine');
    await visit('/inbox/active', 'inbox-active');
  });

  it('a chat with messages, and its visitor panel', { timeout: 60_000 }, async () => {
    await visit(`/chats/${chatId}`, 'chat');
    await page.getByRole('log', { name: words['workspace.messages.label'] }).getByText('It ships today.').waitFor();
    await check('chat-with-messages');
    const composer = page.getByRole('textbox', { name: words['workspace.composer.messageLabel'] });
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

  return { run: () => run, page: () => page, check };
}
