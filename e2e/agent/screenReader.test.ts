/**
 * The agent app as a screen reader gets it (Chromium's accessibility tree):
 * a new chat is announced in the app's polite status region, a visitor's new
 * message in an open chat lands in the conversation's polite live log (both
 * regions there before the news), and every control of the screens an agent
 * works in has a name.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { axTree, unnamedControls } from '../helpers/axTree.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: screen readers', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];
  let channel: ChatChannel;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    channel = await createChatChannel(run.t, { name: 'Support app' });
    ({ browser, page } = await openAsAdmin(run, log, 900));
  });

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('announces a new chat in the status region', async () => {
    const status = page.locator('[role="status"][aria-live="polite"]').first();
    await status.waitFor({ state: 'attached' });
    await postInbound(run.t, channel, textMessage('vera-1', 'Hello, anyone there?', { name: 'Vera Visitor' }));
    await expect.poll(() => status.textContent()).toBe('New chat from Vera Visitor');
    const nodes = await axTree(page);
    expect(nodes.find((n) => n.name === 'New chat from Vera Visitor' && !n.ignored)?.live).toBe('polite');
  });

  it("announces the visitor's new message in the conversation's live log", async () => {
    await page.getByRole('button', { name: 'Reply to Vera Visitor' }).click();
    const messages = page.getByRole('log', { name: 'Messages' });
    await messages.getByText('Hello, anyone there?').waitFor();
    expect(await messages.getAttribute('aria-live')).toBe('polite');
    const region = await messages.elementHandle();

    await postInbound(run.t, channel, textMessage('vera-1', 'My order number is 1042.', { name: 'Vera Visitor' }));
    await messages.getByText('My order number is 1042.').waitFor();
    // The same region, there before the message: an announced addition, not a new region.
    expect(await region.evaluate((el) => el.isConnected && (el.textContent ?? '').includes('My order number is 1042.'))).toBe(true);
    const nodes = await axTree(page);
    expect(nodes.find((n) => n.name === 'My order number is 1042.' && !n.ignored)?.live).toBe('polite');
  });

  it('names every control of the inbox, a chat, the archive, the profile and the admin pages', { timeout: 90_000 }, async () => {
    const screens: Record<string, string[]> = {};
    screens['chat'] = unnamedControls(await axTree(page));
    for (const path of ['/inbox/pending', '/archive', '/offline', '/calls', '/profile', '/admin/agents', '/admin/channels', '/admin/settings']) {
      await page.goto(`${run.base}${path}`);
      await page.locator('.conn-live').waitFor();
      await page.locator('main h1, main h2').first().waitFor();
      await page.waitForLoadState('networkidle');
      screens[path] = unnamedControls(await axTree(page));
    }
    expect(Object.entries(screens).filter(([, unnamed]) => unnamed.length > 0)).toEqual([]);
  });
});
