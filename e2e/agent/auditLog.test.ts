/**
 * Admin → Audit log in a real browser (#33, docs/DATA.md "Audit log"): its
 * empty state, then, newest first, who changed the settings, downloaded all
 * data and erased a visitor, from which address — and of the visitor only
 * their number, never their name.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: Admin → Audit log', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 800));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('says nothing is recorded yet, then lists who did what, to what and from where', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.locator('[data-empty="audit"]').getByText('Nothing recorded yet.').waitFor();
    await screenshot(page, 'audit-empty');

    const admin = bearer(run.t.adminToken);
    const as = (remoteAddress: string) => ({ headers: admin, remoteAddress });
    const channel = await createChatChannel(run.t, { name: 'Bridge' });
    await postInbound(run.t, channel, textMessage('erase-me', 'hello', { name: 'Zebulon Quince' }));
    const visitor = (
      await run.t.app.inject({ method: 'GET', url: `/api/v1/visitors?channel_id=${channel.id}&sender_id=erase-me`, ...as('198.51.100.7') })
    ).json<{ id: number; number: number }[]>()[0];
    expect(visitor).toBeDefined();
    expect((await run.t.app.inject({ method: 'PUT', url: '/api/v1/settings', payload: { missed_chat_minutes: 7 }, ...as('198.51.100.7') })).statusCode).toBe(
      200,
    );
    expect((await run.t.app.inject({ method: 'GET', url: '/api/v1/export', ...as('198.51.100.8') })).statusCode).toBe(200);
    expect((await run.t.app.inject({ method: 'DELETE', url: `/api/v1/visitors/${visitor.id}`, ...as('198.51.100.9') })).statusCode).toBe(202);

    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.locator('table.audit tbody tr');
    await rows.filter({ hasText: 'Erased a visitor' }).waitFor();
    const erased = rows.filter({ hasText: 'Erased a visitor' });
    expect(await erased.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      'Administrator',
      'Erased a visitor',
      `visitor ${visitor.id}`,
      '198.51.100.9',
    ]);
    expect(await rows.filter({ hasText: 'Downloaded all data' }).getByRole('cell').nth(4).textContent()).toBe('198.51.100.8');
    expect(await rows.filter({ hasText: 'Changed the settings' }).getByRole('cell').nth(4).textContent()).toBe('198.51.100.7');
    // Newest first.
    const actions = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
    expect(actions.indexOf('visitor.erased')).toBeLessThan(actions.indexOf('data.exported'));
    expect(actions.indexOf('data.exported')).toBeLessThan(actions.indexOf('settings.updated'));
    expect(await page.locator('table.audit').textContent()).not.toContain('Zebulon');
    expect(await page.locator('[data-empty="audit"]').count()).toBe(0);
    await screenshot(page, 'audit-rows');
  });
});
