/**
 * Issue #17 in a real browser: the visitor panel shows the page's custom data
 * (setCustomData) and the chat_accepted answer's under their own headings,
 * the answer's contact info only where it differs from the visitor's fields,
 * and the answer's page as the CRM's page beside the page the visitor is on;
 * the admin settings screen chooses the event types with one checkbox each,
 * the result shown beside the button.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerEndpoint, waitFor } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

const ANSWER = {
  result: 'ok',
  custom_data: [{ title: 'CRM plan', content: 'Gold since 2019' }],
  contact_info: { name: 'Ann from CRM', email: 'ann@crm.example.com', description: 'Prefers e-mail' },
  crm_link: 'https://crm.example.com/card/12',
  page: { url: 'https://crm.example.com/deals/12', title: 'Deal 12' },
};

describe.skipIf(!chromiumAvailable())('agent app: the chat_accepted answer and the event types', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    receiver = await startCustomerEndpoint((req) =>
      JSON.parse(req.body).event_name === 'chat_accepted' ? { status: 200, body: JSON.stringify(ANSWER) } : { status: 200, body: '{"result":"ok"}' },
    );
    run = await startApp();
    expect((await api('PUT', '/api/v1/settings', { event_webhook_url: `${receiver.url}/events` })).statusCode).toBe(200);
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    await receiver?.close();
  });

  it("shows the page's custom data and the CRM's apart, and the CRM's page beside the visitor's", async () => {
    const widget = await createWidget(run.t, { name: 'Shop' });
    const s = await startSession(run.t, widget.widget_id, { page: { url: 'https://shop.example.com/checkout', title: 'Checkout' } });
    await visitorCall(run.t, widget.widget_id, s.visitor_token, 'custom-data', { fields: [{ title: 'Cart', content: '3 items' }] });
    const sent = await visitorCall(run.t, widget.widget_id, s.visitor_token, 'messages', { type: 'text', text: 'Help with my checkout' });
    const chatId: number = sent.json().chat_id;
    expect((await api('POST', `/api/v1/chats/${chatId}/accept`)).statusCode).toBe(200);
    await waitFor(async () => (await api('GET', `/api/v1/chats/${chatId}`)).json().crm_page, 10_000);

    await page.goto(`${run.base}/chats/${chatId}`);
    const panel = page.getByRole('complementary');
    const fromPage = panel.getByRole('region', { name: 'From the page' });
    const fromCrm = panel.getByRole('region', { name: 'From your CRM' });
    await fromCrm.waitFor({ timeout: 10_000 });
    expect(await fromPage.textContent()).toContain('3 items');
    expect(await fromPage.textContent()).not.toContain('Gold since 2019');
    expect(await fromCrm.textContent()).toContain('Gold since 2019');
    expect(await fromCrm.textContent()).not.toContain('3 items');
    // The answer's contact_info wrote the visitor's fields: it is not shown twice.
    const contact = panel.getByRole('region', { name: 'Contact info' });
    expect(await contact.textContent()).toBe("Contact infoSame as the visitor's name, e-mail and about above.");
    expect(await panel.locator('dl.fields').first().textContent()).toContain('AboutPrefers e-mail');
    expect(await panel.getByRole('region', { name: 'Page in your CRM' }).getByRole('link', { name: 'Deal 12' }).getAttribute('href')).toBe(
      'https://crm.example.com/deals/12',
    );
    expect(await panel.getByRole('region', { name: 'Current page' }).getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe(
      'https://shop.example.com/checkout',
    );
    await screenshot(page, 'agent-visitor-panel-crm-answer');
    // The visitor gives another e-mail: the CRM's one is now shown, as a row of its own.
    expect((await visitorCall(run.t, widget.widget_id, s.visitor_token, 'contact', { email: 'ann.new@example.com' })).statusCode).toBe(200);
    await contact.getByText('ann@crm.example.com').waitFor();
    expect(await contact.textContent()).toBe("Contact infoE-mailann@crm.example.comSame as the visitor's name and about above.");
    expect(await panel.locator('dl.fields').first().textContent()).toContain('ann.new@example.com');
  });

  it('chooses the event types in the settings, one checkbox each, and says what was saved', async () => {
    await page.goto(`${run.base}/admin/settings`);
    const form = page.getByRole('form', { name: 'Event types' });
    await form.waitFor();
    expect(await form.getByRole('checkbox', { name: /chat_accepted/ }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /chat_started/ }).isChecked()).toBe(false);
    await form.getByRole('checkbox', { name: /call_event/ }).uncheck();
    await form.getByRole('checkbox', { name: /chat_rated/ }).check();
    await form.getByRole('button', { name: 'Save event types' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved: 6 of 10 event types are sent.' }).waitFor();
    const types = (await api('GET', '/api/v1/settings')).json().event_webhook_types;
    expect(types).toMatchObject({ call_event: false, chat_rated: true, chat_started: false, chat_accepted: true });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-admin-event-types');
  });
});
