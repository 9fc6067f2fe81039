/**
 * Admin → System in a real browser (#31 item 14): with no untrusted proxy
 * seen, its empty state and what TRUST_PROXY says; once requests came with
 * X-Forwarded-For from an address TRUST_PROXY does not list, a warning naming
 * that address, what it means and what to set; "Download all data" saves the
 * account's export (docs/DATA.md).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: Admin → System', () => {
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

  it('shows the trusted proxies and an empty state, then warns about a proxy TRUST_PROXY does not list', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'System' }).click();
    await page.getByRole('heading', { name: 'System' }).waitFor();
    // The test app trusts 127.0.0.1 (its own sockets).
    await page.getByText('Trusted proxies (TRUST_PROXY): 127.0.0.1.').waitFor();
    await page.getByText('No request has come through a proxy that TRUST_PROXY does not list').waitFor();
    await screenshot(page, 'system-empty');

    for (let i = 0; i < 2; i++) {
      const res = await run.t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.20.30.40', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect(res.statusCode).toBe(200);
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    const warning = page.locator('[data-warning="untrusted-proxies"]');
    await warning.getByText('Requests arrive through a proxy that TRUST_PROXY does not list.').waitFor();
    expect(await warning.getByRole('cell', { name: '10.20.30.40' }).isVisible()).toBe(true);
    expect(await warning.getByRole('row').nth(1).textContent()).toContain('10.20.30.402');
    expect(await warning.locator('code').textContent()).toBe('TRUST_PROXY=127.0.0.1,10.20.30.40');
    await screenshot(page, 'system-untrusted-proxy');
  });

  it('downloads the account as one NDJSON file from "Download all data"', async () => {
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    await page.getByText('It holds no password, sign-in token or secret.').waitFor();
    await screenshot(page, 'system-export');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download all data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^parley-export-\d{4}-\d\d-\d\d\.ndjson$/);
    const file = await download.path();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data?: { email?: string } });
    expect(lines[0].type).toBe('account');
    expect(lines.find((l) => l.type === 'agent')?.data?.email).toBe(ADMIN_EMAIL);
    expect(lines.at(-1)).toEqual({ type: 'end', lines: lines.length - 1 });
  });
});
