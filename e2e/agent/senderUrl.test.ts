/**
 * #32 item 6 in a real browser: a chat-channel sender.url that is no http(s)
 * URL (a real mobile app sends 'support.ua mobile') is shown in the visitor
 * panel as the text it is, never as a link; an http(s) one stays a link.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: a chat-channel sender.url', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  let channel: ChatChannel;
  const browserLog: string[] = [];

  /** The chat a sender's first message opened. */
  const chatOf = async (senderId: string, url: string): Promise<number> => {
    expect((await postInbound(run.t, channel, { sender: { id: senderId, name: senderId, url }, message: { type: 'text', text: 'hello' } })).statusCode).toBe(
      200,
    );
    const row = await run.t.app.ctx.db
      .selectFrom('chats')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .select('chats.id')
      .where('visitors.external_id', '=', senderId)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const currentPage = () => page.locator('.visitor-panel').getByRole('region', { name: 'Current page' });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    channel = await createChatChannel(run.t, { name: 'Mobile app' });
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows text that is no URL as text, with no link', async () => {
    const chatId = await chatOf('app-user-1', 'support.ua mobile');
    await page.goto(`${run.base}/chats/${chatId}`);
    await currentPage().getByText('support.ua mobile').waitFor();
    expect(await currentPage().getByRole('link').count()).toBe(0);
    await screenshot(page, 'agent-visitor-panel-sender-url-text');
  });

  it('keeps an http(s) sender.url a link', async () => {
    const chatId = await chatOf('app-user-2', 'https://shop.example.com/cart');
    await page.goto(`${run.base}/chats/${chatId}`);
    const link = currentPage().getByRole('link', { name: 'https://shop.example.com/cart' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://shop.example.com/cart');
  });

  it('never makes a link of a javascript: sender.url', async () => {
    const chatId = await chatOf('app-user-3', 'javascript:alert(1)');
    await page.goto(`${run.base}/chats/${chatId}`);
    await currentPage().getByText('javascript:alert(1)').waitFor();
    expect(await currentPage().getByRole('link').count()).toBe(0);
  });
});
