/**
 * The agent app in a real browser against the real app: sign in through the
 * form, a chat-channel message appears live in the waiting queue, Reply, the
 * answer reaches the customer endpoint and shows delivered (or failed with
 * the endpoint's error), typing both ways, private notes, finish, a lost Reply
 * race, XSS in visitor strings, and the stream resuming after a drop.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

const XSS = '<img src=x onerror=window.__xss=1>';
const REFUSAL = '{"error":{"code":42,"message":"User blocked the bot"}}';
/** The receiver's chat_accepted answer (spec C): what the agent's panel shows. */
const ACCEPTED_ANSWER = JSON.stringify({
  result: 'OK',
  custom_data: [
    { title: 'Shop', key: 'Order id', content: 'A-1001' },
    { key: 'Profile', content: 'Open profile', link: 'https://crm.example.com/u/1' },
    { key: 'Elsewhere', content: 'Other domain', link: 'https://evil.example.net/x' },
    { key: 'Markup', content: '<b>not bold</b>' },
  ],
  contact_info: { name: 'Alice Visitor', email: 'alice@example.com', phone: '+15550100199' },
  enable_assign: true,
  crm_link: 'https://crm.example.com/card/1',
  page: { url: 'https://shop.example.com/cart', title: 'Cart' },
});

describe.skipIf(!chromiumAvailable())('agent app: inbox and conversation', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let channel: ChatChannel;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let events: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  const socketUrls: string[] = [];
  const customerBodies = () => customer.requests.map((r) => r.body);
  const inbound = (body: unknown) => postInbound(run.t, channel, body).then((res) => expect(res.statusCode).toBe(200));
  const chatItem = (name: string) => page.locator('.chat-item', { hasText: name });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    customer = await startCustomerEndpoint((req) =>
      req.body.includes('refuse-me') ? { status: 200, body: REFUSAL } : { status: 200, body: '{"result":"ok"}' },
    );
    events = await startCustomerEndpoint((req) => ({ body: req.body.includes('"chat_accepted"') ? ACCEPTED_ANSWER : '{"result":"ok"}' }));
    run = await startApp();
    channel = await createChatChannel(run.t, { webhook_url: `${customer.url}/hook`, name: 'Support app' });
    const settings = await run.t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(run.t.adminToken),
      payload: { event_webhook_url: `${events.url}/events`, safe_url: 'https://crm.example.com' },
    });
    expect(settings.statusCode).toBe(200);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.on('websocket', (ws) => socketUrls.push(ws.url()));
    collectBrowserLog(page, browserLog);
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    await customer?.close();
    await events?.close();
  });

  it('signs in through the form', async () => {
    await page.goto(`${run.base}/`);
    await page.locator('input[name="email"]').waitFor();
    await screenshot(page, 'agent-login');
    // A wrong password is refused with the server's sentence.
    await page.locator('input[name="email"]').fill(ADMIN_EMAIL);
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong' }).waitFor();
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('main#main').count()).toBe(1);
    expect(await page.locator('header').count()).toBeGreaterThan(0);

    // Going online makes the channel available (status 1) without any other step.
    await page.getByRole('combobox', { name: 'My status' }).selectOption('online');
    await waitFor(async () => (await run.t.app.inject({ method: 'GET', url: `${channel.path}/status` })).body === '1');
    // Desktop alerts: the permission is asked from a click.
    await context.grantPermissions(['notifications'], { origin: run.base });
    await page.getByRole('button', { name: 'Enable desktop alerts' }).click();
    await page.getByRole('button', { name: 'Enable desktop alerts' }).waitFor({ state: 'detached' });
  });

  it('shows a new chat-channel chat in the waiting queue live, without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 1));
    await inbound(textMessage('cust-1', 'Hello, I need help with my order', { name: 'Alice Visitor', email: 'alice@example.com', phone: '+15550100100' }));
    await chatItem('Alice Visitor').waitFor({ timeout: 10_000 });
    await page.getByRole('status').filter({ hasText: 'New chat from Alice Visitor' }).waitFor();
    expect(await chatItem('Alice Visitor').textContent()).toContain('Hello, I need help with my order');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
    expect(await page.title()).toMatch(/^\(\d+\) Parley$/);
    await screenshot(page, 'agent-inbox');
  });

  it('Reply takes the chat; the answer reaches the customer endpoint and shows delivered', async () => {
    await page.getByRole('button', { name: 'Reply to Alice Visitor' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByText('Hello, I need help with my order').waitFor();
    expect(await log.getAttribute('aria-live')).toBe('polite');

    // Visitor typing shows; agent typing reaches the customer as typein.
    await inbound({ sender: { id: 'cust-1' }, message: { type: 'typein' } });
    await page.getByText('The visitor is typing…').waitFor();
    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.fill('Hi Alice, let me check');
    await waitFor(() => customerBodies().some((b) => b.includes('"typein"')));

    await inbound({ sender: { id: 'cust-1' }, message: { type: 'typeout' } });
    await page.getByText('The visitor is typing…').waitFor({ state: 'detached' });

    await composer.press('Enter');
    await waitFor(() => customerBodies().some((b) => b.includes('Hi Alice, let me check')));
    const mine = page.locator('.message.agent', { hasText: 'Hi Alice, let me check' });
    await mine.locator('[data-delivery="delivered"]').waitFor({ timeout: 10_000 });
    const sent = JSON.parse(customerBodies().find((b) => b.includes('Hi Alice, let me check')) ?? '{}');
    expect(sent.recipient.id).toBe('cust-1');
    await screenshot(page, 'agent-conversation');
  });

  it("shows a refused delivery as failed with the endpoint's error text", async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.fill('refuse-me please');
    await page.getByRole('button', { name: 'Send' }).click();
    const failed = page.locator('.message.agent', { hasText: 'refuse-me please' }).locator('[data-delivery="failed"]');
    await failed.waitFor({ timeout: 10_000 });
    expect(await failed.textContent()).toContain('User blocked the bot');
  });

  it('keeps private notes among agents', async () => {
    await page.getByRole('checkbox', { name: 'Private note' }).check();
    await page.getByRole('textbox', { name: 'Private note (not sent to the visitor)' }).fill('Internal: VIP customer');
    await page.getByRole('button', { name: 'Add note' }).click();
    const note = page.locator('.message.note', { hasText: 'Internal: VIP customer' });
    await note.waitFor();
    expect(await note.textContent()).toContain('Private note — only agents see this');
    await page.getByRole('checkbox', { name: 'Private note' }).uncheck();
    await new Promise((r) => setTimeout(r, 300));
    expect(customerBodies().some((b) => b.includes('VIP customer'))).toBe(false);
  });

  it('shows the visitor panel with the chat_accepted answer (and works at phone width)', async () => {
    const panel = page.getByRole('complementary');
    // The answer comes from the event webhook delivery: under a loaded start of the suite its first attempt can fail, and the retry comes 5 s later.
    await panel.getByText('A-1001').waitFor({ timeout: 25_000 });
    const text = (await panel.textContent()) ?? '';
    for (const expected of ['alice@example.com', '+15550100199', 'Visitor number', 'Contact info', 'Shop', '<b>not bold</b>', 'Other domain']) {
      expect(text, expected).toContain(expected);
    }
    expect(await panel.locator('strong', { hasText: 'Order id:' }).count()).toBe(1);
    expect(await panel.locator('b').count()).toBe(0);
    const profile = panel.getByRole('link', { name: 'Open profile' });
    expect(await profile.getAttribute('href')).toBe('https://crm.example.com/u/1');
    expect(await profile.getAttribute('target')).toBe('_blank');
    expect(await profile.getAttribute('rel')).toContain('noopener');
    // Safe URL: the link to another domain is not offered.
    expect(await panel.locator('a[href^="https://evil.example.net"]').count()).toBe(0);
    expect(await panel.getByRole('link', { name: 'Open in CRM' }).getAttribute('href')).toBe('https://crm.example.com/card/1');
    expect(await panel.getByRole('link', { name: 'Cart' }).getAttribute('href')).toBe('https://shop.example.com/cart');
    // The bind-to-CRM button comes before the custom data, the CRM button after it.
    const order = await panel.evaluate((el) => Array.from(el.querySelectorAll('.assign, .custom-data, .crm')).map((n) => n.className));
    expect(order).toEqual(['assign', 'custom-data', 'button crm']);
    // A widget visitor's browser session (written directly: the widget is another area), and a user token
    // that must never show. Binding to the CRM sends chat.updated, which brings the new visitor copy.
    const session = {
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      geoip: { city: 'Berlin', region: 'Berlin', country: 'Germany', country_code: 'DE', organization: 'Example ISP' },
      utm: { source: 'newsletter', campaign: 'spring' },
      user_token: 'tok-secret-123',
    };
    await run.t.app.ctx.db
      .updateTable('visitors')
      .set({ session_json: JSON.stringify(session), user_token: 'tok-secret-123' })
      .where('email', '=', 'alice@example.com')
      .execute();
    await panel.getByRole('button', { name: 'Bind to CRM card' }).click();
    await panel.getByText('Bound to the CRM card.').waitFor();
    await panel.getByText('Chrome 120 on Windows (desktop)').waitFor();
    const sessionText = (await panel.getByRole('region', { name: 'Session' }).textContent()) ?? '';
    for (const expected of ['Berlin, Berlin, Germany', 'Example ISP', '203.0.113.7', 'utm_source', 'newsletter', 'spring']) {
      expect(sessionText, expected).toContain(expected);
    }
    expect(await page.content()).not.toContain('tok-secret-123');
    await waitFor(() => events.requests.some((r) => r.body.includes('"chat_assigned"')));
    await screenshot(page, 'agent-visitor-panel');

    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await screenshot(page, 'agent-conversation-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('finishes the chat', async () => {
    await page.getByRole('button', { name: 'Finish chat' }).click();
    await page.getByRole('form', { name: 'Finish chat' }).getByRole('button', { name: 'Finish' }).click();
    await page.locator('.conversation-header').getByText('Finished').waitFor();
    expect(await page.getByRole('textbox', { name: 'Message to the visitor' }).count()).toBe(0);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const chat = await run.t.app.inject({ method: 'GET', url: `/api/v1/chats/${id}`, headers: bearer(run.t.adminToken) });
    expect(chat.json().status).toBe('finished');
  });

  it('says so when another agent was faster to Reply', async () => {
    const bob = await addAgent(run.t, { email: 'bob@example.com', name: 'Bob' });
    await page.goto(`${run.base}/inbox/pending`);
    await inbound(textMessage('cust-2', 'Anyone there?', { name: 'Carol Race' }));
    await chatItem('Carol Race').waitFor();
    const chatId = Number(await chatItem('Carol Race').getAttribute('data-chat-id'));
    // Bob presses Reply just before us.
    await page.route(`**/api/v1/chats/${chatId}/accept`, async (route) => {
      const res = await run.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(bob.token) });
      expect(res.statusCode).toBe(200);
      await route.continue();
    });
    await page.getByRole('button', { name: 'Reply to Carol Race' }).click();
    await page.getByRole('alert').filter({ hasText: 'already taken by another agent' }).waitFor();
    await page.unroute(`**/api/v1/chats/${chatId}/accept`);
  });

  it('renders every message type', async () => {
    const f = 'https://files.example.com';
    const media = [
      { type: 'photo', file: `${f}/p.jpg`, thumb: `${f}/p-thumb.jpg`, file_name: 'p.jpg', file_size: 2048, text: 'my receipt' },
      { type: 'sticker', file: `${f}/s.webp`, file_name: 's.webp', file_size: 100 },
      { type: 'video', file: `${f}/v.mp4`, file_name: 'v.mp4', file_size: 4_000_000 },
      { type: 'audio', file: `${f}/a.mp3`, file_name: 'a.mp3', file_size: 300_000 },
      { type: 'voice', file: `${f}/voice.ogg`, file_name: 'voice.ogg', file_size: 9000 },
      { type: 'document', file: `${f}/report.pdf`, file_name: 'report.pdf', file_size: 12_345 },
      { type: 'location', latitude: 52.52, longitude: 13.405 },
    ];
    for (const message of media) await inbound({ sender: { id: 'cust-media', name: 'Mia Media' }, message });
    await chatItem('Mia Media').locator('.chat-link').click();
    const log = page.getByRole('log', { name: 'Messages' });
    await log
      .locator('.message')
      .nth(media.length - 1)
      .waitFor();
    expect(await log.locator(`a[href="${f}/p.jpg"] img[src="${f}/p-thumb.jpg"]`).count()).toBe(1);
    expect(await log.getByText('my receipt').count()).toBe(1);
    expect(await log.locator(`img[src="${f}/s.webp"]`).count()).toBe(1);
    expect(await log.locator(`video[src="${f}/v.mp4"]`).count()).toBe(1);
    expect(await log.locator('audio').count()).toBe(2);
    const doc = log.getByRole('link', { name: /report\.pdf/ });
    expect(await doc.getAttribute('href')).toBe(`${f}/report.pdf`);
    expect(await doc.textContent()).toContain('12.1 KB');
    const map = log.getByRole('link', { name: /Location 52\.52000, 13\.40500/ });
    expect(await map.getAttribute('href')).toContain('mlat=52.52&mlon=13.405');
    expect(await map.getAttribute('rel')).toContain('noopener');
  });

  it('renders visitor-supplied markup as text', async () => {
    await inbound(textMessage('cust-xss', XSS, { name: XSS }));
    const item = page.locator('.chat-item', { hasText: 'onerror=window.__xss=1' }).first();
    await item.waitFor();
    await item.locator('.chat-link').click();
    await page.getByRole('log', { name: 'Messages' }).locator('.text', { hasText: XSS }).waitFor();
    expect(await page.locator('#conversation-title').textContent()).toBe(XSS);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('resumes the stream after a drop with its cursor and shows what it missed once', async () => {
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page
      .locator('.conversation-header')
      .getByRole('button', { name: /Reply to/ })
      .click();
    await page.getByRole('textbox', { name: 'Message to the visitor' }).waitFor();
    const before = socketUrls.length;
    for (const socket of run.t.app.websocketServer.clients) socket.terminate();
    await inbound(textMessage('cust-xss', 'sent while the agent was disconnected'));
    await waitFor(() => socketUrls.length > before);
    expect(socketUrls[socketUrls.length - 1]).toMatch(/\/api\/v1\/stream\?cursor=\d+$/);
    const missed = page.locator('.message.visitor', { hasText: 'sent while the agent was disconnected' });
    await missed.waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.conn').textContent()).toBe('Live');
    await inbound(textMessage('cust-xss', 'and one after'));
    await page.locator('.message.visitor', { hasText: 'and one after' }).waitFor();
    expect(await missed.count()).toBe(1);
    expect(await page.locator(`.chat-item[data-chat-id="${id}"]`).count()).toBeLessThanOrEqual(1);
  });

  it('ran without a Content-Security-Policy violation or a page error', () => {
    expect(browserLog.filter((line) => /Content Security Policy|pageerror/i.test(line))).toEqual([]);
  });
});
