/**
 * The agent app with the keyboard alone, in real Chromium: an agent signs in,
 * accepts a waiting chat, replies, sends a canned response, transfers the
 * chat and finishes another, with Tab, Shift+Tab, Enter, the arrows and
 * Escape only (no click). Every element the focus lands on shows it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { setStatus } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { focusStop, tabTo } from '../helpers/keyboard.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: keyboard only', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];
  let channel: ChatChannel;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let bob: { id: number; token: string };

  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });
  const sent = () => customer.requests.map((r) => JSON.parse(r.body) as { message?: { text?: string } });
  const chatOf = (name: string) =>
    waitFor(async () =>
      (await api('GET', '/api/v1/chats')).json<Array<{ id: number; status: string; visitor: { name?: string | null } }>>().find((c) => c.visitor.name === name),
    );

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    customer = await startCustomerEndpoint();
    run = await startApp();
    channel = await createChatChannel(run.t, { webhook_url: `${customer.url}/hook`, name: 'Support app' });
    bob = await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    await setStatus(run.t, 'online', bob.token);
    expect(
      (await api('POST', '/api/v1/canned-responses', { shortcut: 'refund', title: 'Refund policy', text: 'Refunds take 5 working days.' })).statusCode,
    ).toBe(201);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Waits are for events (an element, a request), generous for a loaded machine.
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, log);
  });

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    await customer?.close();
  });

  it('signs in with the keyboard', async () => {
    await page.goto(`${run.base}/`);
    const email = page.locator('input[type="email"][name="email"]');
    await email.waitFor();
    await tabTo(page, email);
    await page.keyboard.type(ADMIN_EMAIL);
    await tabTo(page, page.locator('input[type="password"][name="password"]'));
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('.conn-live').waitFor();
  });

  it('accepts a waiting chat, replies, sends a canned response and transfers it', { timeout: 90_000 }, async () => {
    await postInbound(run.t, channel, textMessage('vera-1', 'Can I get my money back?', { name: 'Vera Visitor' }));
    const reply = page.getByRole('button', { name: 'Reply to Vera Visitor' });
    await reply.waitFor();
    await tabTo(page, reply, { max: 80 });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/chats\/\d+$/);
    const chat = await chatOf('Vera Visitor');
    await waitFor(async () => (await api('GET', `/api/v1/chats/${chat.id}`)).json<{ status: string }>().status === 'active');

    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await tabTo(page, composer, { max: 80 });
    await page.keyboard.type('Let me check that for you.');
    await page.keyboard.press('Enter');
    await waitFor(() => sent().some((b) => b.message?.text === 'Let me check that for you.'));

    // A canned response: "/" opens the list, the arrows choose, Enter inserts, Enter sends. The
    // composer is cleared when the app has the send's answer, which on a loaded machine may come
    // after the customer endpoint got the message: typed before that, "/ref" would be cleared too.
    await expect.poll(() => composer.inputValue(), { timeout: 20_000 }).toBe('');
    await expect.poll(() => composer.isEditable(), { timeout: 20_000 }).toBe(true);
    await page.keyboard.type('/ref');
    await expect.poll(() => composer.inputValue()).toBe('/ref');
    await page.getByRole('listbox', { name: 'Canned responses' }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => composer.inputValue()).toBe('Refunds take 5 working days.');
    await page.keyboard.press('Enter');
    await waitFor(() => sent().some((b) => b.message?.text === 'Refunds take 5 working days.'));
    await screenshot(page, 'keyboard-agent-canned');

    // Typed while a send is on its way: kept as the next message, not wiped when the answer comes.
    const sends = '**/api/v1/chats/*/messages';
    await page.route(sends, async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.keyboard.type('First part.');
    const answered = page.waitForResponse((r) => r.url().includes('/messages') && r.request().method() === 'POST');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Still typing');
    await answered;
    await waitFor(() => sent().some((b) => b.message?.text === 'First part.'));
    await page.unroute(sends);
    await expect.poll(() => composer.inputValue()).toBe('Still typing');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');

    // Transfer, back up the page with Shift+Tab: the disclosure opens with Enter, Escape closes it, then Bob.
    const transfer = page.getByRole('button', { name: 'Transfer', exact: true });
    await tabTo(page, transfer, { back: true, max: 80 });
    await page.keyboard.press('Enter');
    const menu = page.getByRole('group', { name: 'Transfer to another agent' });
    const toBob = menu.getByRole('button', { name: 'Transfer to Bob Builder (online)' });
    await toBob.waitFor();
    await tabTo(page, toBob);
    await screenshot(page, 'keyboard-agent-transfer');
    await page.keyboard.press('Enter');
    await page.getByRole('log', { name: 'Messages' }).getByText('Transferred from Administrator to Bob Builder').waitFor();
    await waitFor(async () => (await api('GET', `/api/v1/chats/${chat.id}`)).json<{ accepted_by: number }>().accepted_by === bob.id);
  });

  it('accepts another chat and finishes it', { timeout: 90_000 }, async () => {
    await postInbound(run.t, channel, textMessage('otto-2', 'Just a quick question', { name: 'Otto Other' }));
    await page.goto(`${run.base}/inbox/pending`);
    await page.locator('.conn-live').waitFor();
    const reply = page.getByRole('button', { name: 'Reply to Otto Other' });
    await reply.waitFor();
    await tabTo(page, reply, { max: 80 });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/chats\/\d+$/);
    const chat = await chatOf('Otto Other');

    const finish = page.getByRole('button', { name: 'Finish chat' });
    await finish.waitFor();
    await tabTo(page, finish, { max: 80 });
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Finish chat' });
    const confirm = form.getByRole('button', { name: 'Finish', exact: true });
    await confirm.waitFor();
    await tabTo(page, confirm);
    await page.keyboard.press('Enter');
    await waitFor(async () => (await api('GET', `/api/v1/chats/${chat.id}`)).json<{ status: string }>().status === 'finished');
    // The focus is somewhere on the page still (not lost to the body), and it shows.
    await page.keyboard.press('Tab');
    const stop = await focusStop(page);
    expect(stop?.visible, stop?.what).toBe(true);
  });

  it('is never trapped: Tab goes through the whole page and comes back round', async () => {
    await page.goto(`${run.base}/inbox/pending`);
    await page.locator('.conn-live').waitFor();
    const seen = new Set<string>();
    let first: string | null = null;
    let back = false;
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Tab');
      const stop = await focusStop(page);
      if (!stop) continue;
      expect(stop.visible, stop.what).toBe(true);
      if (first === null) first = stop.what;
      else if (stop.what === first) {
        back = true;
        break;
      }
      seen.add(stop.what);
    }
    // Round the page and back to the first stop (the skip link): nothing kept the focus.
    expect(seen.size).toBeGreaterThan(5);
    expect(back, [...seen].join(' → ')).toBe(true);
  });
});
