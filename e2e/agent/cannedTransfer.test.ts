/**
 * Canned responses and transfer in a real browser against the real app: an
 * admin manages canned responses in the admin screen; in the composer `/`
 * opens the listbox, the keyboard picks one and Enter sends it to the
 * visitor; a Transfer from the conversation header hands the chat to a
 * second agent, whose app (another browser context) shows it as theirs live.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { setStatus } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: canned responses and transfer', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  const contexts: BrowserContext[] = [];
  let page: Page;
  let bobPage: Page;
  let bob: { id: number; token: string };
  let channel: ChatChannel;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let chatId: number;
  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });
  const sent = () => customer.requests.map((r) => JSON.parse(r.body) as { sender?: { name?: string }; message?: { type?: string; text?: string } });

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(context);
    const p = await context.newPage();
    collectBrowserLog(p, browserLog);
    return p;
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    customer = await startCustomerEndpoint();
    run = await startApp();
    channel = await createChatChannel(run.t, { webhook_url: `${customer.url}/hook`, name: 'Support app' });
    bob = await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    browser = await launchBrowser();
    page = await newPage();
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    if (page) await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
    if (bobPage) await screenshot(bobPage, `failed-bob-${task.name.replace(/\W+/g, '-').slice(0, 56)}`);
    console.error(`browser log before "${task.name}" failed:\n${browserLog.slice(-40).join('\n')}`);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await run?.t.close();
    await customer?.close();
  });

  it('manages canned responses in the admin screen, refusing a duplicate shortcut', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Canned responses' }).click();
    const form = page.getByRole('form', { name: 'Add a canned response' });
    const add = async (shortcut: string, title: string, text: string) => {
      await form.getByLabel('Shortcut').fill(shortcut);
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Text').fill(text);
      await form.getByRole('button', { name: 'Add canned response' }).click();
    };
    await add('refund', 'Refund policy', 'Refunds take 5 working days.');
    await page.getByRole('form', { name: 'Canned response /refund' }).waitFor();
    await add('/Greet', 'Greeting', 'Hello! How can I help?');
    await page.getByRole('form', { name: 'Canned response /greet' }).waitFor();
    await add('refund', 'Again', 'x');
    await form.getByRole('alert').filter({ hasText: 'already uses the shortcut "/refund"' }).waitFor();

    // Change one in place.
    const greet = page.getByRole('form', { name: 'Canned response /greet' });
    await greet.getByLabel('Text of /greet').fill('Hello! How can I help you today?');
    await greet.getByRole('button', { name: 'Save' }).click();
    await greet.getByText('Saved.').waitFor();
    const list = (await api('GET', '/api/v1/canned-responses')).json();
    expect(list.map((c: { shortcut: string; text: string }) => [c.shortcut, c.text])).toEqual([
      ['greet', 'Hello! How can I help you today?'],
      ['refund', 'Refunds take 5 working days.'],
    ]);
    await screenshot(page, 'agent-admin-canned');
  });

  it('offers canned responses on "/" in the composer: arrows choose, Escape closes, Enter inserts, Enter sends', async () => {
    await postInbound(run.t, channel, textMessage('vera-1', 'Can I get my money back?', { name: 'Vera Visitor' }));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('button', { name: 'Reply to Vera Visitor' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    chatId = Number(new URL(page.url()).pathname.split('/').pop());

    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    const listbox = page.getByRole('listbox', { name: 'Canned responses' });
    await composer.pressSequentially('/ref');
    await listbox.waitFor();
    // Filtered by the shortcut (or the title) as it is typed.
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual([expect.stringContaining('/refund')]);
    await composer.press('Escape');
    await listbox.waitFor({ state: 'detached' });
    expect(await composer.inputValue()).toBe('/ref');

    await composer.fill('');
    await composer.pressSequentially('/');
    await listbox.waitFor();
    const options = listbox.getByRole('option');
    expect(await options.count()).toBe(2);
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await composer.press('ArrowDown');
    await expect.poll(() => options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await composer.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await screenshot(page, 'agent-composer-canned');
    await composer.press('Enter');
    await listbox.waitFor({ state: 'detached' });
    expect(await composer.inputValue()).toBe('Refunds take 5 working days.');
    await composer.press('Enter');
    await page.locator('.message.agent', { hasText: 'Refunds take 5 working days.' }).waitFor();
    await waitFor(() => sent().some((b) => b.message?.text === 'Refunds take 5 working days.'));
    // "/" inside a word is just a slash.
    await composer.pressSequentially('and/or');
    expect(await listbox.count()).toBe(0);
    await composer.fill('');
  });

  it('transfers the chat to another agent, whose app shows it as theirs live', async () => {
    await setStatus(run.t, 'online', bob.token);
    bobPage = await newPage();
    await signIn(bobPage, run.base, 'bob@example.com', 'agent-password-1');
    await bobPage.goto(`${run.base}/inbox/mine`);
    await bobPage.getByText('You have no open chat.').waitFor();

    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const menu = page.getByRole('group', { name: 'Transfer to another agent' });
    await menu.getByRole('button', { name: 'Transfer to Bob Builder (online)' }).click();
    await page.getByRole('log', { name: 'Messages' }).getByText('Transferred from Administrator to Bob Builder').waitFor();
    await page.locator('.conversation-header').getByText('with Bob Builder').waitFor();

    // Bob's app, without a reload: the chat is in "My chats", announced, and his to answer.
    const item = bobPage.getByRole('list', { name: 'My chats' }).locator('.chat-item', { hasText: 'Vera Visitor' });
    await item.waitFor({ timeout: 10_000 });
    await bobPage.getByRole('status').filter({ hasText: 'Chat with Vera Visitor transferred to you' }).waitFor();
    await item.locator('.chat-link').click();
    await bobPage.getByRole('log', { name: 'Messages' }).getByText('Transferred from Administrator to Bob Builder').waitFor();
    await bobPage.getByRole('textbox', { name: 'Message to the visitor' }).fill('Bob here, I will sort out your refund.');
    await bobPage.getByRole('textbox', { name: 'Message to the visitor' }).press('Enter');
    await waitFor(() => sent().some((b) => b.message?.text === 'Bob here, I will sort out your refund.' && b.sender?.name === 'Bob Builder'));
    await screenshot(bobPage, 'agent-transferred-chat');

    const chat = (await api('GET', `/api/v1/chats/${chatId}`)).json();
    expect(chat).toMatchObject({ status: 'active', accepted_by: bob.id, agent_ids: expect.arrayContaining([bob.id]) });
    // The transfer note is not a chat-channel message: the customer never got it.
    expect(sent().some((b) => b.message?.text?.startsWith('Transferred'))).toBe(false);
    // The chat left the administrator's "My chats".
    await page.goto(`${run.base}/inbox/mine`);
    await page.getByText('You have no open chat.').waitFor();
  });

  it('ran without a Content-Security-Policy violation or a page error', () => {
    expect(browserLog.filter((line) => /Content Security Policy|pageerror/i.test(line))).toEqual([]);
  });
});
