/**
 * Erasing a visitor and chat retention in real Chromium (docs/DATA.md): the
 * administrator downloads the visitor's data, then "Erase visitor" in the visitor panel asks first, saying
 * what goes, then shows the erasure's progress until it is done (the visitor
 * is gone from the store); Admin → Settings → Data retention saves the days
 * and says how many chats the next run removes.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: erase a visitor, data retention', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 1100));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('asks what goes, erases, and shows the progress until done', async () => {
    const channel = await createChatChannel(run.t);
    const sender = { name: 'Erin Erasable', email: 'erin@example.com', phone: '+15550100777' };
    expect((await postInbound(run.t, channel, textMessage('erin-1', 'Please delete my data', sender))).statusCode).toBe(200);
    await page.locator('.chat-item', { hasText: 'Erin Erasable' }).click();
    const panel = page.locator('.visitor-panel');
    // The right of access first: the visitor's data as one file, then the erasure.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download visitor’s data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^parley-visitor-\d+\.json$/);
    const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as { visitor: { email: string }; chats: { messages: { text?: string }[] }[] };
    expect(data.visitor.email).toBe('erin@example.com');
    expect(data.chats[0].messages[0].text).toBe('Please delete my data');
    await panel.getByRole('button', { name: 'Erase visitor' }).click();
    const dialog = page.getByRole('alertdialog', { name: /Erase visitor \d+ everywhere/ });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('every chat of the visitor, with all messages, notes and files');
    await screenshot(page, 'agent-erase-visitor-confirm');
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    // The job as the API answered it (202): the progress, then the chat leaves the lists once the erasure is done.
    await expect.poll(() => panel.getByRole('status').textContent()).toMatch(/^Eras(ing… 0 of 1 message, 0 of 1 chat|ed: 1 chat, 1 message, 0 files)\.$/);
    await screenshot(page, 'agent-erase-visitor-progress');
    await page.locator('.chat-item', { hasText: 'Erin Erasable' }).waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(page, 'agent-erase-visitor-done');
    const visitors = await run.t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', 'erin-1').execute();
    expect(visitors).toEqual([]);
  });

  it('saves the retention days and says how many chats the next run removes', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Data retention' });
    await form.waitFor();
    expect(await form.getByRole('status').first().textContent()).toBe('Chats are kept forever.');
    await form.getByLabel('Erase finished chats after (days)').fill('30');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => form.textContent()).toContain('The next run (hourly) will remove 0 chats finished more than 30 days ago.');
    const settings = await run.t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(run.t.adminToken) });
    expect(settings.json().retention).toEqual({ chats_days: 30, chats_due: 0 });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-admin-retention');
  });
});
