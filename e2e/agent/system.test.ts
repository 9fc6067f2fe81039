/**
 * Admin → System in a real browser (#31 item 14): with no untrusted proxy
 * seen, its empty state and what TRUST_PROXY says; once requests came with
 * X-Forwarded-For from an address TRUST_PROXY does not list, a warning naming
 * that address, what it means and what to set. With BACKUP_DIR set (#33):
 * the last scheduled backup (time, size, result), an earlier failure with its
 * reason, and the next one. "Download all data" saves the account's export
 * (docs/DATA.md).
 */
import fs, { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { takeScheduledBackup } from '../../server/backup/scheduled.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
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
    await page.locator('[data-empty="backups"]').getByText('Scheduled backups are off: set BACKUP_DIR').waitFor();
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

describe.skipIf(!chromiumAvailable())('agent app: Admin → System, scheduled backups', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-backups-')), 'backups');

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp({ BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '6', BACKUP_KEEP: '3' });
    ({ browser, page } = await openAsAdmin(run, browserLog, 800));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('shows the last backup, an earlier failure and the next one', async () => {
    const ctx = run.t.app.ctx;
    const interval = 6 * 3600_000;
    const slot = Math.floor(Date.now() / interval) * interval;
    // The backup of the interval before failed (as when the disk was full).
    await ctx.db
      .insertInto('backup_runs')
      .values({
        scheduled_for: slot - interval,
        started_at: slot - interval + 60_000,
        finished_at: slot - interval + 62_000,
        status: 'failed',
        error: 'ENOSPC: no space left on device, write',
      })
      .execute();
    // The worker takes this interval's backup at start; a look of our own takes none more.
    await waitFor(() => ctx.db.selectFrom('backup_runs').select('id').where('scheduled_for', '=', slot).where('status', '=', 'ok').executeTakeFirst());
    expect(await takeScheduledBackup(ctx)).toEqual({ taken: false });

    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'System' }).click();
    await page.getByRole('heading', { name: 'Backups' }).waitFor();
    const ok = page.locator('[data-backup="ok"]');
    await ok.getByText(/Last backup:.*succeeded, [\d.]+ (KiB|MiB) \(0 chats, 0 messages\)/).waitFor();
    expect(await ok.textContent()).toContain(path.join(dir, 'parley-'));
    const failed = page.locator('[data-backup="failed"]');
    await failed.getByText('ENOSPC: no space left on device, write').waitFor();
    await page.getByText('Every 6 hours into').waitFor();
    await page.getByText(/Next backup:/).waitFor();
    await screenshot(page, 'system-backups');
  });
});
