/**
 * Admin → Assignment in real Chromium: the account's mode, timeout and
 * department wait, a department's own mode and an agent's chat limit, each
 * saved with its result next to its button and stored through the API (and a
 * widget's department choice with a department's German name); a
 * refused value is said in words next to the button, and nothing changes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: assignment', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];
  let alice: { id: number };
  let sales: number;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    alice = await addAgent(run.t, { email: 'alice@example.com', name: 'Alice Able' });
    sales = (await api('POST', '/api/v1/departments', { name: 'Sales' })).json().id;
    ({ browser, page } = await openAsAdmin(run, browserLog, 1100));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('saves the mode, the timeout and the department wait, the result next to Save; a bad timeout is refused in words', async () => {
    await page.goto(`${run.base}/admin/assignment`);
    const account = page.getByRole('region', { name: 'How new chats reach agents' });
    await account.getByRole('radio', { name: /Round robin/ }).check();
    await account.getByLabel('Seconds an agent has to accept an offered chat').fill('2');
    await account.getByRole('button', { name: 'Save assignment' }).click();
    await account.getByText(/offer timeout must be a whole number of seconds from 5 to 600/).waitFor();
    expect((await api('GET', '/api/v1/routing')).json().mode).toBe('manual');

    await account.getByLabel('Seconds an agent has to accept an offered chat').fill('20');
    await account.getByLabel('after (seconds)').fill('90');
    await account.getByRole('button', { name: 'Save assignment' }).click();
    await expect.poll(() => account.getByRole('status').textContent()).toBe('Saved: round robin, 20 s to accept; department chats go to everyone after 90 s.');
    expect((await api('GET', '/api/v1/routing')).json()).toMatchObject({ mode: 'round_robin', offer_timeout_seconds: 20, everyone_after_seconds: 90 });
  });

  it("saves a department's own mode and an agent's limit, each next to its button", async () => {
    await page.goto(`${run.base}/admin/assignment`);
    const departments = page.getByRole('region', { name: 'Departments' });
    await departments.getByLabel('Mode of Sales').selectOption('least_busy');
    await departments.getByRole('button', { name: 'Save department modes' }).click();
    await expect.poll(() => departments.getByRole('status').textContent()).toBe('Saved: 1 department with a mode of its own.');

    const limits = page.getByRole('region', { name: 'Chats at once' });
    await limits.getByLabel('Chat limit of Alice Able').fill('3');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => limits.getByRole('status').textContent()).toBe('Saved: 1 agent has a limit.');
    const stored = (await api('GET', '/api/v1/routing')).json();
    expect(stored.departments).toEqual([{ id: sales, name: 'Sales', mode: 'least_busy', names: {} }]);
    expect(stored.agents.find((a: { id: number }) => a.id === alice.id)).toMatchObject({ max_chats: 3 });
    await screenshot(page, 'agent-admin-assignment');
  });

  it("saves a widget's department choice and a department's names in two languages, the result next to its button", async () => {
    const widget = (await api('POST', '/api/v1/channels', { type: 'widget', name: 'Shop site' })).json();
    await page.goto(`${run.base}/admin/assignment`);
    const choice = page.getByRole('region', { name: 'Department choice in the widget' });
    await choice.getByLabel('Department choice of Shop site').selectOption('required');
    const language = choice.getByLabel('Department names for visitors who speak');
    await language.selectOption({ label: 'German' });
    await choice.getByLabel('German name of Sales').fill('Vertrieb');
    await language.selectOption({ label: 'French' });
    await choice.getByLabel('French name of Sales').fill('Ventes');
    // The other language's name is kept while this one is edited, and the list says which have names.
    expect(await language.locator('option', { hasText: 'German' }).textContent()).toBe('German (1 named)');
    await choice.getByRole('button', { name: 'Save department choice' }).click();
    await expect.poll(() => choice.getByRole('status').textContent()).toBe('Saved: 1 widget asks for a department.');
    const stored = (await api('GET', '/api/v1/routing')).json();
    expect(stored.widgets).toEqual([{ id: widget.id, name: 'Shop site', department_choice: 'required' }]);
    expect(stored.departments[0].names).toEqual({ de: 'Vertrieb', fr: 'Ventes' });
    // Emptied, a name is removed: the widget shows the department's own name in that language.
    await choice.getByLabel('French name of Sales').fill('');
    await choice.getByRole('button', { name: 'Save department choice' }).click();
    await expect.poll(async () => (await api('GET', '/api/v1/routing')).json().departments[0].names).toEqual({ de: 'Vertrieb' });
    await choice.screenshot({ path: 'test-artifacts/agent-admin-department-choice.png' });
  });
});
