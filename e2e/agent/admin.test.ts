/**
 * The admin screens in a real browser against the real app: agents,
 * departments, a chat-API channel created in the UI showing its endpoint URL,
 * a widget with its snippet, settings (URLs, secret rotation, callbacks), the
 * delivery log with redelivery; plus the archive search, a widget chat's
 * browser session in the visitor panel, offline messages and callback
 * requests arriving live, and what a non-admin agent sees.
 */
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import type { SessionResponse } from '../../protocol/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: admin screens', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let created: ChatChannel;
  let widget: TestWidget;
  let visitor: SessionResponse;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    customer = await startCustomerEndpoint();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    await customer?.close();
  });

  it("fits the header on one row at 1280 px, an administrator's navigation, alerts button and a long name included", async () => {
    const longName = 'Maximiliana Montgomery-Fitzwilliam de la Cruz';
    const renamed = await run.t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(run.t.adminToken), payload: { name: longName } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      const me = page.locator('header .me');
      await expect.poll(() => me.getAttribute('title')).toContain(longName);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const first = (await nav.getByRole('link', { name: 'Inbox' }).boundingBox())!;
      const last = (await nav.getByRole('link', { name: 'Admin' }).boundingBox())!;
      const signOut = (await page.locator('header').getByRole('button', { name: 'Sign out', exact: true }).boundingBox())!;
      expect(last.y).toBe(first.y);
      expect(Math.abs(signOut.y + signOut.height / 2 - (first.y + first.height / 2))).toBeLessThan(4);
      expect(signOut.x + signOut.width).toBeLessThanOrEqual(1280);
      await screenshot(page, 'agent-header-1280');
    } finally {
      await run.t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(run.t.adminToken), payload: { name: 'Administrator' } });
    }
    await page
      .locator('header .me')
      .filter({ hasText: /^Administrator$/ })
      .waitFor();
  });

  it('adds an agent, changes its role and deactivates it', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    const form = page.getByRole('form', { name: 'Add an agent' });
    await form.getByLabel('Name').fill('Dana Agent');
    await form.getByLabel('E-mail').fill('dana@example.com');
    await form.getByLabel('Password').fill('dana-password-1');
    await form.getByRole('button', { name: 'Add agent' }).click();
    const row = page.getByRole('row', { name: /Dana Agent/ });
    await row.waitFor();
    await row.getByRole('combobox', { name: 'Role of Dana Agent' }).selectOption('admin');
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByRole('button', { name: 'Reactivate' }).waitFor();
    const dana = (await api('GET', '/api/v1/agents')).json().find((a: { email: string }) => a.email === 'dana@example.com');
    expect(dana).toMatchObject({ name: 'Dana Agent', role: 'admin', active: false });
  });

  it('adds a department', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Departments' }).click();
    await page.getByLabel('New department').fill('Sales');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('textbox', { name: 'Name of department Sales' }).waitFor();
    expect((await api('GET', '/api/v1/departments')).json()).toEqual([{ id: expect.any(Number), name: 'Sales' }]);
  });

  it('connects a chat API channel in the UI and shows its endpoint URL', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('button', { name: 'Connect chat API' }).click();
    const form = page.getByRole('form', { name: 'Connect chat API' });
    await form.getByLabel('Channel name').fill('Mobile app');
    await form.getByLabel('Webhook server URL').fill(`${customer.url}/hook`);
    await form.getByLabel('Send with chunked transfer encoding').check();
    await form.getByRole('checkbox', { name: /Administrator/ }).check();
    await form.getByRole('button', { name: 'Connect chat API' }).click();
    const card = page.locator('.channel', { hasText: 'Mobile app' });
    const endpoint = card.getByRole('textbox', { name: 'Endpoint URL' });
    await endpoint.waitFor();
    const url = await endpoint.inputValue();
    expect(url).toMatch(/^http:\/\/parley\.test\/wh\/[^/]+\/[^/]+$/);
    expect(await card.getByRole('button', { name: 'Copy Endpoint URL' }).count()).toBe(1);
    const [channel] = (await api('GET', '/api/v1/channels')).json();
    const me = (await api('GET', '/api/v1/me')).json();
    expect(channel).toMatchObject({
      type: 'chat_api',
      name: 'Mobile app',
      endpoint_url: url,
      webhook_url: `${customer.url}/hook`,
      chunked: true,
      agent_ids: [me.id],
    });
    created = { ...channel, path: new URL(url).pathname };
    // The endpoint works: a customer message posted to it is accepted.
    expect((await postInbound(run.t, created, textMessage('m-1', 'From the mobile app', { name: 'Erin Mobile' }))).statusCode).toBe(200);
  });

  it('adds a website widget and shows its install snippet', async () => {
    await page.getByRole('button', { name: 'Add website widget' }).click();
    const form = page.getByRole('form', { name: 'Add a website widget' });
    await form.getByLabel('Channel name').fill('Shop widget');
    await form.getByLabel(/Allowed domains/).fill('shop.example.com\n*.example.org');
    await form.getByLabel('Hide the default launcher').check();
    await form.getByRole('button', { name: 'Add widget' }).click();
    const card = page.locator('.channel', { hasText: 'Shop widget' });
    const snippet = card.getByRole('textbox', { name: 'Install snippet' });
    await snippet.waitFor();
    expect(await snippet.inputValue()).toMatch(/^<script src="http:\/\/parley\.test\/widget\/[^"]+\.js" async><\/script>$/);
    await card.getByText("hidden (the site's own button opens the chat)").waitFor();
    const widgets = (await api('GET', '/api/v1/channels')).json<Array<{ name: string; hide_launcher?: boolean; enabled?: boolean }>>();
    expect(widgets.find((c) => c.name === 'Shop widget')).toMatchObject({ hide_launcher: true, enabled: true });
    await screenshot(page, 'agent-admin-channels');

    // Appearance and language, with the preview following the form as it is typed.
    await card.getByRole('button', { name: 'Change' }).click();
    const edit = page.getByRole('form', { name: 'Change Shop widget' });
    await edit.getByLabel('Window title').fill('Acme help');
    await edit.getByLabel('Greeting when the window opens').fill('Hello! Ask us anything.');
    await edit.getByLabel('Launcher', { exact: true }).selectOption('button');
    await edit.getByLabel('Position').selectOption('left');
    await edit.getByLabel('Language').selectOption('de');
    const preview = edit.getByRole('img', { name: 'Preview of the widget' });
    await preview.getByText('Acme help').waitFor();
    await preview.getByText('Hello! Ask us anything.').waitFor();
    await screenshot(page, 'agent-admin-widget-appearance');
    await edit.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Acme help, round button, bottom left, language de').waitFor();
    const saved = (await api('GET', '/api/v1/channels')).json<Array<{ name: string; appearance: Record<string, unknown> }>>();
    expect(saved.find((c) => c.name === 'Shop widget')?.appearance).toMatchObject({
      title: 'Acme help',
      greeting: 'Hello! Ask us anything.',
      launcher: 'button',
      position: 'left',
      language: 'de',
    });
  });

  it('changes the settings, rotates the webhook secret and sets callback hours', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    const secret = page.getByRole('textbox', { name: 'Webhook secret' });
    await secret.waitFor();
    const before = await secret.inputValue();
    expect(before).toMatch(/^whsec_/);
    await page.getByLabel('Event webhook URL').fill(`${customer.url}/events`);
    await page.getByLabel('Safe URL').fill('https://shop.example.com');
    await page.getByRole('form', { name: 'Integration settings for developers' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Integration settings saved.').waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('A new webhook secret is in use.').waitFor();
    expect(await secret.inputValue()).not.toBe(before);

    const callbacks = page.getByRole('form', { name: 'Callbacks' });
    await callbacks.getByLabel('Visitors may ask to be called back').check();
    await callbacks.getByLabel('Call time left (seconds)').fill('600');
    await callbacks.getByLabel(/Time zone/).fill('Europe/Berlin');
    await callbacks.getByLabel('Always open').uncheck();
    await callbacks.getByLabel('Monday').fill('09:00-13:00, 14:00-18:00');
    await callbacks.getByRole('button', { name: 'Save callback settings' }).click();
    await page.getByText('Callback settings saved.').waitFor();
    const settings = (await api('GET', '/api/v1/settings')).json();
    expect(settings).toMatchObject({
      event_webhook_url: `${customer.url}/events`,
      safe_url: 'https://shop.example.com',
      webhook_secret: await secret.inputValue(),
      callback: {
        enabled: true,
        balance_seconds: 600,
        timezone: 'Europe/Berlin',
        hours: {
          mon: [
            ['09:00', '13:00'],
            ['14:00', '18:00'],
          ],
        },
      },
    });
    await screenshot(page, 'agent-admin-settings');
  });

  it('lists deliveries and sends one again', async () => {
    const [chat] = (await api('GET', '/api/v1/chats?status=pending')).json();
    expect((await api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Hello from the admin' })).statusCode).toBe(201);
    await waitFor(() => customer.requests.some((r) => r.body.includes('Hello from the admin')));
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Delivery log' }).click();
    const row = page.getByRole('row', { name: /message/ }).first();
    await row.waitFor();
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return row.textContent();
      })
      .toContain('delivered');
    const sent = customer.requests.length;
    await row.getByRole('button', { name: /Redeliver delivery \d+/ }).click();
    await waitFor(() => customer.requests.length > sent);
    await screenshot(page, 'agent-admin-deliveries');
  });

  it('searches the archive by visitor name and by message text', async () => {
    const [chat] = (await api('GET', '/api/v1/chats?status=active')).json();
    expect((await api('POST', `/api/v1/chats/${chat.id}/finish`, {})).statusCode).toBe(200);
    await page.getByRole('link', { name: 'Archive' }).click();
    await page.locator('.chat-item', { hasText: 'Erin Mobile' }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search all chats' });
    await search.fill('mobile app');
    await page.locator('.chat-item', { hasText: 'Erin Mobile' }).waitFor();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'match' }).textContent()).toBe('1 chat match.');
    await search.fill('erin');
    await expect.poll(() => page.locator('.chat-item').count()).toBe(1);
    await search.fill('no such words');
    await expect.poll(() => page.locator('.chat-item').count()).toBe(0);
  });

  it("shows a widget chat with the visitor's browser session", async () => {
    widget = await createWidget(run.t, { name: 'Help widget' });
    visitor = await startSession(run.t, widget.widget_id, {
      page: { url: 'https://shop.example.com/pricing', title: 'Pricing' },
      utm: { source: 'google', campaign: 'brand' },
    });
    await sendText(run.t, widget.widget_id, visitor.visitor_token, 'Question from the website');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    const item = page.locator('.chat-item', { hasText: 'Question from the website' });
    await item.waitFor();
    await item.locator('.chat-link').click();
    const panel = page.getByRole('complementary');
    await panel.getByText('Chrome 126 on Linux (desktop)').waitFor();
    const text = (await panel.textContent()) ?? '';
    for (const expected of ['utm_source', 'google', 'brand', 'Pricing']) expect(text, expected).toContain(expected);
    expect(text).not.toContain(visitor.visitor_token);
  });

  it('shows offline messages as they arrive', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Offline messages' }).click();
    await page.getByRole('heading', { name: 'Offline messages' }).waitFor();
    const sent = await visitorCall(run.t, widget.widget_id, visitor.visitor_token, 'offline', {
      name: 'Gina Offline',
      email: 'gina@example.com',
      message: 'Please call me <script>window.__xss=1</script>',
    });
    expect(sent.json()).toEqual({ result: 'ok' });
    const card = page.locator('.card', { hasText: 'Gina Offline' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Please call me <script>window.__xss=1</script>');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('shows callback requests as they arrive, with status actions', async () => {
    expect((await api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 600, hours: null } })).statusCode).toBe(200);
    // The list's answer is read before the call exists and reaches the page
    // only after the call's live frame: the call must still be shown.
    let read!: () => void;
    const listRead = new Promise<void>((resolve) => (read = resolve));
    let framed!: () => void;
    const frameSeen = new Promise<void>((resolve) => (framed = resolve));
    await page.route('**/api/v1/calls', async (route) => {
      const answer = await route.fetch();
      read();
      await frameSeen;
      await route.fulfill({ response: answer });
    });
    // The app opens its stream socket anew on this page load, so the frame it receives can be watched.
    const watch = (ws: WebSocket) => ws.on('framereceived', ({ payload }) => String(payload).includes('+15550100199') && framed());
    page.on('websocket', watch);
    try {
      await page.goto(`${run.base}/calls`);
      await page.getByRole('heading', { name: 'Callback requests' }).waitFor();
      await listRead;
      const asked = await visitorCall(run.t, widget.widget_id, visitor.visitor_token, 'callback', { phone: '+15550100199' });
      expect(asked.json()).toMatchObject({ result: 'ok' });
      await Promise.race([
        frameSeen,
        new Promise((_, reject) => setTimeout(() => reject(new Error("the call's frame did not reach the page's stream socket in 10 s")), 10_000)),
      ]);
      await page.getByText('Loading…').waitFor({ state: 'detached' });
    } finally {
      framed();
      page.off('websocket', watch);
      await page.unrouteAll({ behavior: 'wait' });
    }
    const card = page.locator('.card', { hasText: '+15550100199' });
    await card.getByText('Requested').waitFor();
    await card.getByRole('button', { name: 'Agent connected' }).click();
    await card.locator('.pill', { hasText: 'Agent connected' }).waitFor();
    await card.getByRole('button', { name: 'End call' }).click();
    await card.locator('.pill', { hasText: 'Ended' }).waitFor();
    expect(await card.getByRole('button', { name: 'End call' }).count()).toBe(0);
    const [call] = (await api('GET', '/api/v1/calls')).json();
    expect(call).toMatchObject({ phone: '+15550100199', status: 'end' });
    await screenshot(page, 'agent-calls');
  });

  it('shows no admin screens to an agent', async () => {
    await addAgent(run.t, { email: 'frank@example.com', password: 'frank-password-1', name: 'Frank' });
    const context = await browser.newContext();
    const agentPage = await context.newPage();
    try {
      await signIn(agentPage, run.base, 'frank@example.com', 'frank-password-1');
      expect(await agentPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await agentPage.goto(`${run.base}/admin/agents`);
      await agentPage.getByText('Only administrators can open the admin screens.').waitFor();
      // Sign out brings the form back, and the session is gone.
      await agentPage.getByRole('button', { name: 'Sign out', exact: true }).click();
      await agentPage.locator('input[name="email"]').waitFor();
      await agentPage.reload();
      await agentPage.locator('input[name="email"]').waitFor();
    } finally {
      await context.close();
    }
  });

  it('ran without a Content-Security-Policy violation or a page error', () => {
    expect(browserLog.filter((line) => /Content Security Policy|pageerror/i.test(line))).toEqual([]);
  });
});
