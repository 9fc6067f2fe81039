/**
 * Callback settings and the Calls page in a real browser: ticking "Visitors may ask to be called
 * back" fills in working call time (10 hours), every field has its explanation beside it, and the
 * Calls page says what its statuses and buttons do ("How callback requests work").
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: callback settings and the Calls page', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 1400));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('switching callbacks on fills in 10 hours of call time, each field explained beside it', async () => {
    await page.goto(`${run.base}/admin/settings`);
    const form = page.getByRole('form', { name: 'Callbacks' });
    await form.waitFor();
    const balance = form.getByLabel('Call time left (seconds)');
    expect(await balance.inputValue()).toBe('0');
    await form.getByLabel('Visitors may ask to be called back').check();
    expect(await balance.inputValue()).toBe('36000');
    await expect.poll(() => form.locator('#cb-balance-hint').textContent()).toMatch(/^10 h left\. Every call is charged/);
    for (const field of ['Visitors may ask to be called back', 'Call time left (seconds)', 'Time zone (IANA, e.g. Europe/Berlin)', 'Always open']) {
      const hint = await form.getByLabel(field).getAttribute('aria-describedby');
      expect(hint, field).toBeTruthy();
      expect((await form.locator(`#${hint}`).textContent())?.length, field).toBeGreaterThan(20);
    }
    await balance.fill('5400');
    await expect.poll(() => form.locator('#cb-balance-hint').textContent()).toMatch(/^1 h 30 min left\./);
    await balance.fill('36000');
    await form.getByRole('button', { name: 'Save callback settings' }).click();
    await form.getByText('Callback settings saved.').waitFor();
    const settings = (await run.t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(run.t.adminToken) })).json();
    expect(settings.callback).toMatchObject({ enabled: true, balance_seconds: 36_000, hours: null });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-callback-settings');
  });

  it('the Calls page explains its statuses and buttons, open while there is no request', async () => {
    await page.goto(`${run.base}/calls`);
    await page.getByText('No callback request yet.').waitFor();
    const help = page.locator('details.calls-help');
    expect(await help.getAttribute('open')).not.toBeNull();
    await expect.poll(() => help.locator('summary').textContent()).toBe('How callback requests work');
    const terms = await help.locator('dt').allTextContents();
    expect(terms).toEqual(['Agent connected', 'Client connected', 'End call', 'Failed…']);
    expect(await help.textContent()).toContain('Parley places no call');
    await screenshot(page, 'agent-calls-help');
  });

  it('has a favicon, served from the app (#36)', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const res = await page.request.get(`${run.base}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\//);
  });
});
