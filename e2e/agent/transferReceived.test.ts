/**
 * A transfer seen by the agent who receives it, two agents in real Chromium: the receiving
 * agent's screen shows the chat (the conversation opens beside "My chats"), not the Waiting
 * list's "No chat is waiting." with only a badge counting it; an agent already reading another
 * conversation keeps it on screen, the transferred chat waiting in "My chats".
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { setStatus } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: a transfer received', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  const contexts: BrowserContext[] = [];
  let page: Page;
  let bobPage: Page;
  let bob: { id: number; token: string };
  let channel: ChatChannel;
  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, token = run.t.adminToken) =>
    run.t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    collectBrowserLog(p, browserLog);
    return p;
  };

  /** A chat from `name`, accepted by the administrator (through the API). */
  const chatFrom = async (sender: string, name: string, text: string): Promise<number> => {
    await postInbound(run.t, channel, textMessage(sender, text, { name }));
    const chat = await waitFor(async () => {
      const list = (await api('GET', '/api/v1/chats?status=pending')).json<Array<{ id: number; visitor: { name?: string | null } }>>();
      return list.find((c) => c.visitor.name === name) ?? null;
    });
    expect((await api('POST', `/api/v1/chats/${chat.id}/accept`)).statusCode).toBe(200);
    return chat.id;
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    channel = await createChatChannel(run.t, { name: 'Support app' });
    bob = await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    await setStatus(run.t, 'online', bob.token);
    browser = await launchBrowser();
    page = await newPage();
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    bobPage = await newPage();
    await signIn(bobPage, run.base, 'bob@example.com', 'agent-password-1');
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
  });

  it('opens the chat on the receiving agent\'s screen, beside "My chats", when the inbox shows no conversation', async () => {
    const chatId = await chatFrom('vera-1', 'Vera Visitor', 'Can I get my money back?');
    await bobPage.goto(`${run.base}/`);
    await bobPage.getByText('No chat is waiting.').waitFor();

    await page.goto(`${run.base}/chats/${chatId}`);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByRole('group', { name: 'Transfer to another agent' }).getByRole('button', { name: 'Transfer to Bob Builder (online)' }).click();
    await page.getByRole('log', { name: 'Messages' }).getByText('Transferred from Administrator to Bob Builder').waitFor();

    // Bob's screen, no click and no reload: the conversation, his to answer, and the list it is in.
    const log = bobPage.getByRole('log', { name: 'Messages' });
    await log.getByText('Can I get my money back?').waitFor();
    await log.getByText('Transferred from Administrator to Bob Builder').waitFor();
    expect(new URL(bobPage.url()).pathname).toBe(`/chats/${chatId}`);
    await bobPage.getByRole('list', { name: 'My chats' }).locator('.chat-item', { hasText: 'Vera Visitor' }).waitFor();
    expect(await bobPage.getByText('No chat is waiting.').count()).toBe(0);
    expect(
      await bobPage
        .getByRole('navigation', { name: 'Chat lists' })
        .getByRole('link', { name: /My chats/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    await bobPage.getByRole('textbox', { name: 'Message to the visitor' }).fill('Bob here, I will sort it out.');
    await bobPage.getByRole('textbox', { name: 'Message to the visitor' }).press('Enter');
    await log.locator('.message.agent', { hasText: 'Bob here, I will sort it out.' }).waitFor();
    await screenshot(bobPage, 'agent-transfer-received');
  });

  it('leaves a conversation the agent is reading on screen; the transferred chat waits in "My chats"', async () => {
    const onScreen = new URL(bobPage.url()).pathname;
    const second = await chatFrom('walt-1', 'Walt Waiting', 'Is my order on its way?');
    expect((await api('POST', `/api/v1/chats/${second}/transfer`, { agent_id: bob.id })).statusCode).toBe(200);
    await bobPage.getByRole('list', { name: 'My chats' }).locator('.chat-item', { hasText: 'Walt Waiting' }).waitFor();
    await bobPage.getByRole('status').filter({ hasText: 'Chat with Walt Waiting transferred to you' }).waitFor();
    expect(new URL(bobPage.url()).pathname).toBe(onScreen);
    await bobPage.getByRole('log', { name: 'Messages' }).getByText('Bob here, I will sort it out.').waitFor();
  });

  it('ran without a Content-Security-Policy violation or a page error', () => {
    expect(browserLog.filter((line) => /Content Security Policy|pageerror/i.test(line))).toEqual([]);
  });
});
