/**
 * An agent on two devices, and the Archive's channel filter for agents (#20),
 * in real Chromium: reading a chat in one browser clears its unread badge in
 * the agent's other browser at once, without a reload (the chat.read frame);
 * an agent who is not an administrator filters the Archive by the channels it
 * sees (GET /api/v1/me/channels), never by others, and an agent who sees one
 * channel gets no channel filter.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

const ANN = { email: 'ann@example.com', password: 'ann-password-1' };
const BEN = { email: 'ben@example.com', password: 'ben-password-1' };

describe.skipIf(!chromiumAvailable())('agent app: one agent on two devices, and the Archive by channel', () => {
  let run: RunningApp;
  let browser: Browser;
  let shop: ChatChannel;
  let help: ChatChannel;
  let partner: ChatChannel;
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  const browserLog: string[] = [];
  const say = async (channel: ChatChannel, sender: string, text: string, name: string) =>
    expect((await postInbound(run.t, channel, textMessage(sender, text, { name }))).statusCode).toBe(200);
  const device = async (who: { email: string; password: string }, width = 1200): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    pages.push(page);
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, who.email, who.password);
    return page;
  };
  const waitingRow = (page: Page, name: string) => page.getByRole('list', { name: 'Waiting' }).locator('.chat-item', { hasText: name });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    const ann = await addAgent(run.t, { ...ANN, name: 'Ann Agent' });
    const ben = await addAgent(run.t, { ...BEN, name: 'Ben Agent' });
    shop = await createChatChannel(run.t, { name: 'Shop app', agent_ids: [ann.id] });
    help = await createChatChannel(run.t, { name: 'Help desk', agent_ids: [ann.id] });
    partner = await createChatChannel(run.t, { name: 'Partner app', agent_ids: [ben.id] });
    browser = await launchBrowser();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const [i, page] of pages.entries()) await screenshot(page, `failed-reads-${i}-${task.name.replace(/\W+/g, '-').slice(0, 50)}`);
    console.error(`browser log before "${task.name}" failed:\n${browserLog.slice(-40).join('\n')}`);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await run?.t.close();
  });

  // Two browsers signing in and four rounds of live updates: more than the default 30 s on a loaded machine.
  it("reading a chat on one device clears its unread badge on the agent's other device, without a reload", { timeout: 90_000 }, async () => {
    await say(shop, 'sam', 'Hello?', 'Sam Shopper');
    await say(shop, 'sam', 'Is my order on its way?', 'Sam Shopper');
    await say(shop, 'sam', 'Order 4411', 'Sam Shopper');
    await say(help, 'hana', 'The app will not start', 'Hana Helpme');
    const laptop = await device(ANN, 1280);
    const phone = await device(ANN, 1024);
    for (const page of [laptop, phone]) {
      await waitingRow(page, 'Sam Shopper').getByLabel('3 unread').waitFor();
      await waitingRow(page, 'Hana Helpme').getByLabel('1 unread').waitFor();
    }
    // A mark in the phone's document: still there afterwards means no reload happened.
    await phone.evaluate(() => Object.assign(window, { sameDocument: true }));
    await screenshot(phone, 'agent-two-devices-before-read');

    await laptop.bringToFront();
    await waitingRow(laptop, 'Sam Shopper').locator('.chat-link').click();
    await laptop.getByRole('article').getByText('Order 4411').waitFor();

    await expect.poll(() => waitingRow(phone, 'Sam Shopper').locator('.badge').count(), { timeout: 10_000 }).toBe(0);
    // Only that chat: the other keeps its count.
    await waitingRow(phone, 'Hana Helpme').getByLabel('1 unread').waitFor();
    expect(await phone.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await screenshot(phone, 'agent-two-devices-read-elsewhere');

    // Away from the chat on the laptop, a new message counts on both; reading it on the laptop clears it on the phone again.
    await laptop.goto(`${run.base}/inbox/pending`);
    await say(shop, 'sam', 'Any news?', 'Sam Shopper');
    for (const page of [laptop, phone]) await waitingRow(page, 'Sam Shopper').getByLabel('1 unread').waitFor();
    await waitingRow(laptop, 'Sam Shopper').locator('.chat-link').click();
    await laptop.getByRole('article').getByText('Any news?').waitFor();
    await expect.poll(() => waitingRow(phone, 'Sam Shopper').locator('.badge').count(), { timeout: 10_000 }).toBe(0);
    expect(await phone.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('lets an agent filter the Archive by the channels it sees, and by no other', async () => {
    await say(partner, 'pia', 'Partner question', 'Pia Partner');
    const laptop = pages[0];
    await laptop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archive' }).click();
    await laptop.locator('.archive-filters select[name="status"]').selectOption('');
    const list = laptop.getByRole('list', { name: 'Chats' });
    await list.locator('.chat-item', { hasText: 'Hana Helpme' }).waitFor();
    await list.locator('.chat-item', { hasText: 'Sam Shopper' }).waitFor();

    const channel = laptop.locator('.archive-filters select[name="channel"]');
    await channel.waitFor();
    expect(await channel.locator('option').allTextContents()).toEqual(['Any channel', 'Help desk', 'Shop app']);
    await channel.selectOption({ label: 'Shop app' });
    await expect.poll(() => list.locator('.chat-item').allTextContents()).toEqual([expect.stringContaining('Sam Shopper')]);
    await screenshot(laptop, 'agent-archive-channel-filter');
    await channel.selectOption({ label: 'Help desk' });
    await expect.poll(() => list.locator('.chat-item').allTextContents()).toEqual([expect.stringContaining('Hana Helpme')]);
    await channel.selectOption({ label: 'Any channel' });
    await expect.poll(() => list.locator('.chat-item').count()).toBe(2);
    // Pia wrote to a channel Ann does not work: never listed.
    expect(await list.locator('.chat-item', { hasText: 'Pia Partner' }).count()).toBe(0);
  });

  it('shows no channel filter to an agent who sees one channel', { timeout: 60_000 }, async () => {
    const page = await device(BEN);
    const channels = page.waitForResponse((r) => r.url().endsWith('/api/v1/me/channels') && r.status() === 200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archive' }).click();
    expect(await (await channels).json()).toEqual([{ id: partner.id, type: 'chat_api', name: 'Partner app' }]);
    await page.locator('.archive-filters select[name="status"]').selectOption('');
    await page.getByRole('list', { name: 'Chats' }).locator('.chat-item', { hasText: 'Pia Partner' }).waitFor();
    expect(await page.locator('.archive-filters select[name="channel"]').count()).toBe(0);
  });
});
