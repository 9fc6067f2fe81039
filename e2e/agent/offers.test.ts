/**
 * Offers in real Chromium (#21, docs/ROUTING.md "What the agent sees"), with
 * two agents each in their own browser context and round robin set through
 * PUT /api/v1/routing: a new chat offered to Ann is marked "Offered to you"
 * in her Waiting list with the time counting down (Ben sees "Offered to Ann
 * Able" and no offer bar), her conversation shows the offer bar with Accept
 * and Decline, and a reload keeps both; she declines, and the offer reaches
 * Ben live, survives his reload, and he accepts it. A Decline the server
 * refuses (409: the offer moved on meanwhile) is said in words next to the
 * buttons, and a re-offer to Ann brings the buttons back. An offer whose
 * time runs out in the page leaves the row with no mark, and the rows shrink
 * back to their usual height.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { setStatus } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

const PASSWORD = 'agent-password-1';
const DECLINED = 'You declined this chat: it is offered to the next agent. It stays in Waiting, so you can still press Reply.';
const NOT_OFFERED =
  'This chat is no longer offered to you: its time ran out or it went to another agent, so there is nothing to decline. It stays in Waiting: press Reply to take it.';

describe.skipIf(!chromiumAvailable())('agent app: offers', () => {
  let run: RunningApp;
  let browser: Browser;
  let ann: Page;
  let ben: Page;
  const browserLog: string[] = [];
  let a: { id: number; token: string };
  let b: { id: number; token: string };
  let channel: ChatChannel;
  let first: number;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, token = run.t.adminToken, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const offeredTo = async (chatId: number) =>
    (await run.t.app.ctx.db.selectFrom('chat_offers').select('agent_id').where('chat_id', '=', chatId).executeTakeFirst())?.agent_id ?? null;
  const row = (page: Page, chatId: number) => page.locator(`.chat-item[data-chat-id="${chatId}"]`);
  const offerBar = (page: Page) => page.getByRole('region', { name: 'Offer' });

  async function newChat(sender: string, name: string): Promise<number> {
    const res = await postInbound(run.t, channel, textMessage(sender, 'Hello, can someone help me with my order?', { name }));
    expect(res.statusCode, res.body).toBe(200);
    return waitFor(
      async () => (await api('GET', '/api/v1/chats?status=pending')).json().find((c: { id: number; visitor: { name: string } }) => c.visitor.name === name)?.id,
    );
  }

  async function openAgent(email: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, email, PASSWORD);
    return page;
  }

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    // The administrator is not Online: Ann and Ben are the only agents offered chats (Ann first: the lower id).
    await setStatus(run.t, 'away');
    a = await addAgent(run.t, { email: 'ann@example.com', name: 'Ann Able', password: PASSWORD });
    b = await addAgent(run.t, { email: 'ben@example.com', name: 'Ben Best', password: PASSWORD });
    await setStatus(run.t, 'online', a.token);
    await setStatus(run.t, 'online', b.token);
    // A long timeout: nothing here may depend on the machine's speed; the offers move by Decline only.
    const routing = await api('PUT', '/api/v1/routing', run.t.adminToken, { mode: 'round_robin', offer_timeout_seconds: 600 });
    expect(routing.statusCode, routing.body).toBe(200);
    channel = await createChatChannel(run.t);
    browser = await launchBrowser();
    ann = await openAgent('ann@example.com');
    ben = await openAgent('ben@example.com');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    const name = task.name.replace(/\W+/g, '-').slice(0, 50);
    if (ann) await screenshot(ann, `failed-ann-${name}`);
    if (ben) await screenshot(ben, `failed-ben-${name}`);
    console.error(`browser log:\n${browserLog.slice(-40).join('\n')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('marks the chat offered to Ann in her Waiting list, counting down; Ben sees whose turn it is; the offer bar and a reload', async () => {
    first = await newChat('offer-visitor-1', 'Olga Offer');
    expect(await offeredTo(first)).toBe(a.id);

    const annRow = row(ann, first);
    await annRow.getByText('Offered to you').waitFor();
    // The visitor's words stay readable: the offer has its own line under them, not in their place.
    const preview = annRow.locator('.chat-preview');
    expect(await preview.textContent()).toBe('Hello, can someone help me with my order?');
    const previewBox = (await preview.boundingBox())!;
    const markBox = (await annRow.locator('.pill-offer').boundingBox())!;
    expect(markBox.y).toBeGreaterThanOrEqual(previewBox.y + previewBox.height - 1);
    const readable = await preview.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      return Math.min(text.right, el.getBoundingClientRect().right) - text.left;
    });
    expect(readable).toBeGreaterThan(100);
    const timer = annRow.getByRole('timer');
    const shown = await timer.textContent();
    expect(shown).toMatch(/^(10:00|9:[0-5]\d)$/);
    // It counts down live.
    await expect.poll(() => timer.textContent(), { timeout: 5000 }).not.toBe(shown);

    // Ben sees whose turn it is, and nothing to decline.
    await row(ben, first).getByText('Offered to Ann Able').waitFor();
    expect(await row(ben, first).getByText('Offered to you').count()).toBe(0);
    await screenshot(ann, 'agent-offer-list-mark');

    await annRow.getByRole('link').click();
    const bar = offerBar(ann);
    await bar.getByText('Offered to you').waitFor();
    await bar.getByRole('button', { name: 'Accept' }).waitFor();
    await bar.getByRole('button', { name: 'Decline' }).waitFor();
    expect(await bar.getByRole('timer').textContent()).toMatch(/^(10:00|9:[0-5]\d)$/);
    await screenshot(ann, 'agent-offer-bar');

    await ben.goto(`${run.base}/chats/${first}`);
    await ben.getByRole('heading', { name: 'Olga Offer' }).waitFor();
    expect(await offerBar(ben).count()).toBe(0);

    // After a reload the server's `offer` brings both back.
    await ann.reload();
    await ann.locator('.conn-live').waitFor();
    await offerBar(ann).getByRole('button', { name: 'Decline' }).waitFor();
    await row(ann, first).getByText('Offered to you').waitFor();
  });

  it('Ann declines: the offer reaches Ben live, stays after his reload, and he accepts it', async () => {
    const bar = offerBar(ann);
    await bar.getByRole('button', { name: 'Decline' }).click();
    await bar.getByRole('status').waitFor();
    expect(await bar.getByRole('status').textContent()).toBe(DECLINED);
    expect(await bar.getByRole('button', { name: 'Decline' }).count()).toBe(0);
    await row(ann, first).getByText('Offered to Ben Best').waitFor();
    expect(await offeredTo(first)).toBe(b.id);

    // Ben has the conversation open: the bar appears without a reload, and his list marks it.
    const benBar = offerBar(ben);
    await benBar.getByText('Offered to you').waitFor();
    await row(ben, first).getByText('Offered to you').waitFor();
    await ben.reload();
    await ben.locator('.conn-live').waitFor();
    await row(ben, first).getByText('Offered to you').waitFor();
    await benBar.getByRole('button', { name: 'Accept' }).click();

    await ben.locator('.conversation-header .pill-active').waitFor();
    expect(await offerBar(ben).count()).toBe(0);
    expect((await api('GET', `/api/v1/chats/${first}`)).json()).toMatchObject({ status: 'active', accepted_by: b.id, offer: null });
    // It left Ann's Waiting list.
    await expect.poll(() => row(ann, first).count(), { timeout: 10_000 }).toBe(0);
  });

  it('a Decline the server refuses (the offer moved on meanwhile) is said in words next to the buttons; a re-offer brings them back', async () => {
    const second = await newChat('offer-visitor-2', 'Paul Pass');
    expect(await offeredTo(second)).toBe(a.id); // offered longer ago than Ben
    await ann.goto(`${run.base}/chats/${second}`);
    const bar = offerBar(ann);
    await bar.getByRole('button', { name: 'Decline' }).waitFor();

    // Ann's click reaches the server only after her offer went to Ben (declined elsewhere: her other tab, say).
    await ann.route('**/api/v1/chats/*/decline', async (route) => {
      expect((await api('POST', `/api/v1/chats/${second}/decline`, a.token)).statusCode).toBe(200);
      await waitFor(async () => (await offeredTo(second)) === b.id);
      await route.continue();
    });
    await bar.getByRole('button', { name: 'Decline' }).click();
    await bar.getByRole('alert').waitFor();
    expect(await bar.getByRole('alert').textContent()).toBe(NOT_OFFERED);
    await row(ann, second).getByText('Offered to Ben Best').waitFor();
    await screenshot(ann, 'agent-offer-refused');
    await ann.unroute('**/api/v1/chats/*/decline');

    // Ben declines too: a new round offers it to Ann again, live, with the buttons and without the old refusal.
    expect((await api('POST', `/api/v1/chats/${second}/decline`, b.token)).statusCode).toBe(200);
    await waitFor(async () => (await offeredTo(second)) === a.id);
    await bar.getByRole('button', { name: 'Decline' }).waitFor();
    expect(await bar.getByRole('alert').count()).toBe(0);
    await row(ann, second).getByText('Offered to you').waitFor();
  });

  it('an offer that runs out leaves its row with no mark and the rows shrink back, without a frame or a reload', async () => {
    const second = (await api('GET', '/api/v1/chats?status=pending')).json().find((c: { visitor: { name: string } }) => c.visitor.name === 'Paul Pass').id;
    expect(await offeredTo(second)).toBe(a.id);
    // Only this page's clock moves: the server keeps the offer, and sends nothing when the page's time is up.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    collectBrowserLog(page, browserLog);
    try {
      await page.clock.install();
      await signIn(page, run.base, 'ann@example.com', PASSWORD);
      const annRow = row(page, second);
      await annRow.getByText('Offered to you').waitFor();
      expect((await annRow.boundingBox())!.height).toBe(90);
      await page.clock.fastForward('10:01');
      await expect.poll(() => annRow.locator('.chat-offer').count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(async () => (await annRow.boundingBox())!.height).toBe(68);
      expect(await annRow.locator('.chat-preview').textContent()).toBe('Hello, can someone help me with my order?');
      await screenshot(page, 'agent-offer-ran-out');
    } finally {
      await context.close();
    }
  });
});
