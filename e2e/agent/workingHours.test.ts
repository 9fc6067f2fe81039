/**
 * The Working hours admin screen in real Chromium: the empty states (always
 * open, no department), the account's hours saved with a holiday (the result
 * next to the Save button, "open now / closed until …" and the seven-day
 * preview), a refused time zone explained in words with nothing saved, and a
 * department given hours of its own.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: working hours', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];
  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 1000));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows always open and no department at first', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Working hours' }).click();
    await page.getByRole('heading', { name: 'Working hours' }).waitFor();
    await expect.poll(() => page.getByLabel('Chat status').textContent()).toContain('always open');
    expect(await page.getByRole('table', { name: 'Chat: the next seven days' }).getByRole('row').count()).toBe(8);
    await page.getByText('No department yet').waitFor();
    await screenshot(page, 'agent-admin-working-hours-empty');
  });

  it('refuses an unknown time zone in words and saves nothing', async () => {
    const form = page.getByRole('form', { name: 'account hours' });
    await form.getByLabel('Always open').uncheck();
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save hours' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/not a time zone this server knows/);
    expect((await api('GET', '/api/v1/settings')).json().chat_hours).toBeNull();
  });

  it("saves the account's hours with a holiday: the result next to Save, the status and the preview", async () => {
    const form = page.getByRole('form', { name: 'account hours' });
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByLabel('Saturday').fill('10:00-14:00');
    const holiday = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await form.getByRole('button', { name: 'Add exception' }).click();
    await form.getByLabel('Exception date').fill(holiday);
    await form.getByLabel('Note').fill('Company holiday');
    await form.getByRole('button', { name: 'Save hours' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toMatch(/^Saved\. (Open now · closes|Closed until) .+ \(Europe\/Berlin\)\.$/);
    const saved = (await api('GET', '/api/v1/settings')).json().chat_hours;
    expect(saved).toMatchObject({
      timezone: 'Europe/Berlin',
      weekly: { mon: [['09:00', '17:00']], sat: [['10:00', '14:00']] },
      exceptions: [{ date: holiday, ranges: [], note: 'Company holiday' }],
    });
    expect(saved.weekly.sun).toBeUndefined();
    await expect.poll(() => page.getByLabel('Chat status').textContent()).toMatch(/Open now · closes|Closed until/);
    const table = page.getByRole('table', { name: 'Chat: the next seven days' });
    await table
      .getByRole('row', { name: /Company holiday/ })
      .getByText('Closed')
      .waitFor();
    await screenshot(page, 'agent-admin-working-hours');
  });

  it('gives a department hours of its own', async () => {
    await api('POST', '/api/v1/departments', { name: 'Billing' });
    await page.reload();
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await page.getByText("Follows the account's hours.").waitFor();
    await page.getByText("Change Billing's hours").click();
    const form = page.getByRole('form', { name: /^dep-\d+ hours$/ });
    await form.getByLabel("Use the account's hours").uncheck();
    await form.getByLabel('Time zone').fill('America/New_York');
    await form.getByRole('button', { name: 'Save hours' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toMatch(/^Saved\. .*\(America\/New_York\)\.$/);
    const overview = (await api('GET', '/api/v1/working-hours')).json();
    expect(overview.departments).toMatchObject([{ name: 'Billing', hours: { timezone: 'America/New_York' }, timezone: 'America/New_York' }]);
    await page.getByText('Has hours of its own.').waitFor();
    await screenshot(page, 'agent-admin-working-hours-department');
  });
});
