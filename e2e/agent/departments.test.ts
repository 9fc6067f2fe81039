/**
 * Departments in real Chromium: an admin ticks the agents of a department
 * (the result next to Save, stored through the API), and a Transfer from the
 * conversation header sends a chat to a department, where it waits again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: departments', () => {
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
    await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    sales = (await api('POST', '/api/v1/departments', { name: 'Sales' })).json().id;
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it("ticks a department's agents and saves them, the result next to Save", async () => {
    await page.goto(`${run.base}/admin/departments`);
    await page.locator('summary', { hasText: 'Agents of Sales' }).click();
    const members = page.getByRole('group', { name: 'Agents of Sales' });
    await members.getByRole('checkbox', { name: /Alice Able/ }).check();
    await members.getByRole('button', { name: 'Save agents' }).click();
    await expect.poll(() => members.getByRole('status').textContent()).toBe('1 agent in Sales.');
    expect((await api('GET', `/api/v1/departments/${sales}/agents`)).json()).toEqual({ department_id: sales, agent_ids: [alice.id] });
    await screenshot(page, 'agent-admin-department-agents');
  });

  it('transfers a chat to a department from the conversation header', async () => {
    const channel = await createChatChannel(run.t);
    await postInbound(run.t, channel, textMessage('dep-visitor', 'I would like a quote', { name: 'Quinn Quote' }));
    const chat = await waitFor(async () =>
      (await api('GET', '/api/v1/chats?status=pending')).json().find((c: { visitor: { name: string } }) => c.visitor.name === 'Quinn Quote'),
    );
    expect((await api('POST', `/api/v1/chats/${chat.id}/accept`)).statusCode).toBe(200);
    await page.goto(`${run.base}/chats/${chat.id}`);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByRole('button', { name: 'Transfer to the Sales department' }).click();
    await page.getByRole('log', { name: 'Messages' }).getByText('Transferred from Administrator to the Sales department').waitFor();
    expect((await api('GET', `/api/v1/chats/${chat.id}`)).json()).toMatchObject({ status: 'pending', accepted_by: null, department_id: sales });
    await screenshot(page, 'agent-transfer-to-department');
  });
});
