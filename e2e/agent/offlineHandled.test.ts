/**
 * Offline messages marked handled, in a real browser: the page shows the messages not handled yet
 * (the default), Handled or All; a button per message marks it handled (who, when) or not handled
 * again, and it leaves the list it no longer belongs to. The empty states of each filter say so.
 * A mark another agent makes reaches an open page live (offline_message.updated).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: offline messages marked handled', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  const filter = (name: string) => page.getByRole('group', { name: 'Show' }).getByRole('button', { name, exact: true });
  const cards = () => page.getByRole('list', { name: 'Offline messages' }).locator('li.card');

  it('shows what is not handled, marks one handled, and filters Handled / All', async () => {
    await page.goto(`${run.base}/offline`);
    await page.getByText('Every offline message is handled.').waitFor();
    const widget = await createWidget(run.t);
    const s = await startSession(run.t, widget.widget_id);
    for (const [name, message] of [
      ['Olga Order', 'My order 7 never came.'],
      ['Pete Price', 'Do you ship to Norway?'],
    ]) {
      expect((await visitorCall(run.t, widget.widget_id, s.visitor_token, 'offline', { name, email: 'o@example.com', message })).statusCode).toBe(200);
    }
    // Live, into the "Not handled" list.
    await expect.poll(() => cards().count()).toBe(2);
    expect(await filter('Not handled').getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'agent-offline-not-handled');

    const olga = cards().filter({ hasText: 'Olga Order' });
    await olga.getByRole('button', { name: 'Mark handled' }).click();
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().textContent()).toContain('Pete Price');
    const listed = (await run.t.app.inject({ method: 'GET', url: '/api/v1/offline-messages?handled=true', headers: bearer(run.t.adminToken) })).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'Olga Order', handled_at: expect.any(Number), handled_by: expect.any(Number) });

    await filter('Handled').click();
    await cards()
      .filter({ hasText: 'Olga Order' })
      .getByText(/^Handled by Administrator · /)
      .waitFor();
    expect(await cards().count()).toBe(1);
    await screenshot(page, 'agent-offline-handled');

    await filter('All').click();
    await expect.poll(() => cards().count()).toBe(2);
    expect(await cards().filter({ hasText: 'Olga Order' }).getByRole('button', { name: 'Mark not handled' }).count()).toBe(1);
    expect(await cards().filter({ hasText: 'Pete Price' }).getByRole('button', { name: 'Mark handled' }).count()).toBe(1);
    await screenshot(page, 'agent-offline-all');

    // Not handled again: back in "Not handled", gone from "Handled".
    await cards().filter({ hasText: 'Olga Order' }).getByRole('button', { name: 'Mark not handled' }).click();
    await cards().filter({ hasText: 'Olga Order' }).getByRole('button', { name: 'Mark handled' }).waitFor();
    await filter('Handled').click();
    await page.getByText('No offline message is marked handled yet.').waitFor();
    await filter('Not handled').click();
    await expect.poll(() => cards().count()).toBe(2);
  });

  it("follows another agent's marks live, without a reload", async () => {
    const colleague = await addAgent(run.t, { email: `colleague-${Date.now()}@example.com`, name: 'Colleague' });
    await page.goto(`${run.base}/offline`);
    await expect.poll(() => cards().count()).toBe(2);
    const pete = (await run.t.app.inject({ method: 'GET', url: '/api/v1/offline-messages', headers: bearer(colleague.token) }))
      .json<Array<{ id: number; name: string }>>()
      .find((m) => m.name === 'Pete Price')!;
    const mark = (handled: boolean) =>
      run.t.app.inject({ method: 'PATCH', url: `/api/v1/offline-messages/${pete.id}`, headers: bearer(colleague.token), payload: { handled } });
    expect((await mark(true)).statusCode).toBe(200);
    // Gone from this agent's "Not handled" list as the colleague marks it…
    await expect.poll(() => cards().count()).toBe(1);
    await filter('All').click();
    await cards()
      .filter({ hasText: 'Pete Price' })
      .getByText(/^Handled by Colleague · /)
      .waitFor();
    // …and back as they undo it.
    expect((await mark(false)).statusCode).toBe(200);
    await cards().filter({ hasText: 'Pete Price' }).getByRole('button', { name: 'Mark handled' }).waitFor();
    await filter('Not handled').click();
    await expect.poll(() => cards().count()).toBe(2);
  });

  it('says so when marking fails, and changes nothing', async () => {
    await page.route('**/api/v1/offline-messages/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'unavailable', message: 'The database is not answering.' } }),
          })
        : route.continue(),
    );
    try {
      const pete = cards().filter({ hasText: 'Pete Price' });
      await pete.getByRole('button', { name: 'Mark handled' }).click();
      await pete.getByRole('alert').waitFor();
      expect(await cards().count()).toBe(2);
      await screenshot(page, 'agent-offline-mark-failed');
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });
});
