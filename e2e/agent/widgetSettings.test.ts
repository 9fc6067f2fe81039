/**
 * The widget's account-wide settings in a real browser: the triggers editor
 * in Settings (add, edit, reorder, remove invitation rules; an invalid one is
 * refused with the server's sentence; what is saved reaches the widget's
 * session and is what the widget frame accepts), and the identity secret of
 * a widget channel (turn on, copy, rotate, turn off).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, startSession, type TestWidget } from '../../test/helpers/widget.js';
import { parseRules } from '../../web/widget/frame/rules.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: widget triggers and identity secret', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;
  let widget: TestWidget;
  let salesId: number;
  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });
  const storedRules = async () => (await api('GET', '/api/v1/settings')).json().rules;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    salesId = (await api('POST', '/api/v1/departments', { name: 'Sales' })).json().id;
    widget = await createWidget(run.t, { name: 'Shop widget' });
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('saves triggers from the editor; the widget session carries them and the frame accepts them all', async () => {
    await page.goto(`${run.base}/admin/settings`);
    const form = page.getByRole('form', { name: 'Widget triggers' });
    await form.getByText('No trigger: the widget waits for the visitor.').waitFor();
    await form.getByRole('button', { name: 'Add trigger' }).click();
    const first = form.getByRole('group', { name: 'Rule 1' });
    await first.getByLabel('Invitation text').fill('Questions about our plans?');
    await first.getByLabel('After seconds on the page').fill('20');
    await first.getByLabel('URL contains').fill('/pricing');
    await first.getByLabel('URL matches (regular expression)').fill('^https://shop\\.example\\.com/');
    await first.getByLabel('At least this many visits').fill('2');
    await first.getByLabel('Department').selectOption({ label: 'Sales' });
    await form.getByRole('button', { name: 'Add trigger' }).click();
    const second = form.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('Invitation text').fill('Need a hand?');
    await form.getByRole('button', { name: 'Save triggers' }).click();
    await form.getByText('Triggers saved.').waitFor();
    await screenshot(page, 'agent-admin-triggers');

    const expected = {
      rules: [
        {
          id: 'rule-1',
          conditions: { seconds_on_page: 20, url_contains: '/pricing', url_matches: '^https://shop\\.example\\.com/', min_visits: 2 },
          action: { type: 'invitation', text: 'Questions about our plans?', department_id: salesId },
        },
        { id: 'rule-2', conditions: {}, action: { type: 'invitation', text: 'Need a hand?' } },
      ],
    };
    expect(await storedRules()).toEqual(expected);
    const session = await startSession(run.t, widget.widget_id);
    expect(session.settings.rules).toEqual(expected);
    expect(parseRules(session.settings.rules).map((r) => r.id)).toEqual(['rule-1', 'rule-2']);

    // Saved rules survive a reload of the page.
    await page.reload();
    await page.getByRole('form', { name: 'Widget triggers' }).getByRole('group', { name: 'Rule 2' }).getByLabel('Invitation text').waitFor();
    expect(await page.getByRole('group', { name: 'Rule 1' }).getByLabel('URL contains').inputValue()).toBe('/pricing');
  });

  it("refuses an invalid rule with the server's sentence and keeps what was stored", async () => {
    const form = page.getByRole('form', { name: 'Widget triggers' });
    const second = form.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('URL matches (regular expression)').fill('(unclosed');
    await second.getByRole('alert').filter({ hasText: 'URL matches:' }).waitFor();
    const before = await storedRules();
    await form.getByRole('button', { name: 'Save triggers' }).click();
    await form.getByRole('alert').filter({ hasText: 'rules[1].conditions.url_matches is not a valid JavaScript regular expression' }).waitFor();
    expect(await storedRules()).toEqual(before);
    await second.getByLabel('URL matches (regular expression)').fill('');
  });

  it('reorders and removes triggers; removing the last one clears them', async () => {
    const form = page.getByRole('form', { name: 'Widget triggers' });
    await form.getByRole('button', { name: 'Move Rule 2 up' }).click();
    expect(await form.getByRole('group', { name: 'Rule 1' }).getByLabel('Invitation text').inputValue()).toBe('Need a hand?');
    await form.getByRole('button', { name: 'Remove Rule 2' }).click();
    await form.getByRole('button', { name: 'Save triggers' }).click();
    await expect.poll(storedRules).toEqual({ rules: [{ id: 'rule-2', conditions: {}, action: { type: 'invitation', text: 'Need a hand?' } }] });
    await form.getByRole('button', { name: 'Remove Rule 1' }).click();
    await form.getByRole('button', { name: 'Save triggers' }).click();
    await expect.poll(storedRules).toBeNull();
    await form.getByText('No trigger: the widget waits for the visitor.').waitFor();
  });

  it('turns identity verification on for a widget, shows the secret with a copy button, rotates it and turns it off', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Channels' }).click();
    const card = page.locator('.channel', { hasText: 'Shop widget' });
    const section = card.getByRole('region', { name: 'Identity verification' });
    await section.getByText('Off: any page can set any user token').waitFor();
    await section.getByRole('button', { name: 'Turn on identity verification' }).click();
    const secret = section.getByRole('textbox', { name: 'Identity secret' });
    await secret.waitFor();
    const first = await secret.inputValue();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await section.getByRole('button', { name: 'Copy Identity secret' }).count()).toBe(1);
    expect(await section.textContent()).toContain('svc_api.setUserToken(token, signature)');
    expect((await api('GET', `/api/v1/channels/${widget.id}`)).json().identity_secret).toBe(first);
    await screenshot(page, 'agent-admin-identity-secret');

    await section.getByRole('button', { name: 'New identity secret' }).click();
    await section.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => secret.inputValue()).not.toBe(first);
    expect((await api('GET', `/api/v1/channels/${widget.id}`)).json().identity_secret).toBe(await secret.inputValue());

    await section.getByRole('button', { name: 'Turn off identity verification' }).click();
    await section.getByRole('button', { name: 'Yes' }).click();
    await section.getByRole('button', { name: 'Turn on identity verification' }).waitFor();
    expect((await api('GET', `/api/v1/channels/${widget.id}`)).json().identity_secret).toBeNull();
  });

  it('ran without a Content-Security-Policy violation or a page error', () => {
    expect(browserLog.filter((line) => /Content Security Policy|pageerror/i.test(line))).toEqual([]);
  });
});
