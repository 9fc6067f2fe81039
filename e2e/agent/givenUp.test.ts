/**
 * An event type given up on (#17 item 2) in a real browser: the Settings page
 * and the Delivery log show it with the receiver's answer and how many events
 * were not sent since; "Send again" clears it and says so next to it. (The
 * give-up itself is decided by the server: eventWebhooks/giveUp.test.ts; here
 * its record is written as that code writes it.)
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: event types given up on', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    await run.t.app.ctx.db
      .insertInto('event_webhook_given_up')
      .values({
        account_id: run.t.app.ctx.defaultAccountId,
        event_type: 'call_event',
        url: 'https://crm.example.com/parley-events',
        delivery_id: null,
        status_code: 500,
        response: '{"error":"unknown event call_event"}',
        error: 'HTTP 500',
        skipped: 3,
        given_up_at: Date.now(),
      })
      .execute();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the given-up type with the answer on Settings and the Delivery log, and sends it again', async () => {
    await page.goto(`${run.base}/admin/deliveries`);
    const onLog = page.getByRole('region', { name: 'Event types not being sent' });
    await onLog.waitFor();
    expect(await onLog.textContent()).toContain('call_event');
    await screenshot(page, 'agent-admin-deliveries-given-up');

    await page.goto(`${run.base}/admin/settings`);
    const card = page.getByRole('region', { name: 'Event types not being sent' });
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('call_event');
    expect(text).toContain('3 events not sent since');
    expect(text).toContain('HTTP 500');
    expect(text).toContain('{"error":"unknown event call_event"}');
    await screenshot(page, 'agent-admin-settings-given-up');

    await card.getByRole('button', { name: 'Send call_event events again' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toContain('call_event events are sent again');
    expect(await card.getByRole('listitem').count()).toBe(0);
    expect(await run.t.app.ctx.db.selectFrom('event_webhook_given_up').selectAll().execute()).toEqual([]);
    expect(browserLog.filter((l) => l.startsWith('pageerror'))).toEqual([]);
    await screenshot(page, 'agent-admin-settings-given-up-resumed');
  });
});
