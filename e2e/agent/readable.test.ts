/**
 * Issue #36 "every message readable", in real Chromium: links in messages are
 * links (http(s) and mailto only, new tab, rel=noopener noreferrer; a
 * javascript:, data: or markup stays text); an Arabic message and name take
 * their own direction, the punctuation at the message's end; the chat's
 * department and the visitor's language are in the header and the visitor
 * panel (and nothing when there are none); a visitor photo that cannot be
 * loaded shows the initials; a private note says who sees it; Admin →
 * Assignment has its title and sits as the other admin pages do.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

const ARABIC = 'مرحبا، هل طلبي جاهز؟';
const LINKS =
  'Order: https://shop.example/orders/12?x=1&y=2. Help: mailto:help@shop.example. Not javascript:alert(1) nor data:text/html,x <img src=x onerror="window.hacked=1"> (see https://en.wikipedia.org/wiki/Mercury_(planet)).';

describe.skipIf(!chromiumAvailable())('agent app: every message readable', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];
  let chatId: number;
  let plainChatId: number;
  const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    const sales = (await api('POST', '/api/v1/departments', { name: 'Sales' })).json().id;
    const widget = await createWidget(run.t, { name: 'Shop' });
    const s = await startSession(run.t, widget.widget_id, { language: 'ar' });
    const contact = await run.t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/contact`,
      headers: { authorization: `Bearer ${s.visitor_token}` },
      payload: { client_name: 'سارة أحمد' },
    });
    expect(contact.statusCode).toBe(200);
    ({ chat_id: chatId } = await sendText(run.t, widget.widget_id, s.visitor_token, ARABIC, { department_id: sales }));
    await sendText(run.t, widget.widget_id, s.visitor_token, LINKS);
    expect((await api('POST', `/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'VIP, ships first', internal: true })).statusCode).toBe(201);
    // A chat with neither department nor language.
    const other = await startSession(run.t, widget.widget_id);
    ({ chat_id: plainChatId } = await sendText(run.t, widget.widget_id, other.visitor_token, 'hello'));
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('makes http(s) and mailto links clickable, in a new tab without referrer; nothing else becomes a link or markup', async () => {
    await page.goto(`${run.base}/chats/${chatId}`);
    const message = page.locator('.message').filter({ hasText: 'Order:' });
    await message.waitFor();
    const links = message.locator('.text a');
    expect(await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]))).toEqual([
      ['https://shop.example/orders/12?x=1&y=2', 'https://shop.example/orders/12?x=1&y=2', '_blank', 'noopener noreferrer'],
      ['mailto:help@shop.example', 'mailto:help@shop.example', '_blank', 'noopener noreferrer'],
      ['https://en.wikipedia.org/wiki/Mercury_(planet)', 'https://en.wikipedia.org/wiki/Mercury_(planet)', '_blank', 'noopener noreferrer'],
    ]);
    // The rest is text, as written: no image, no script ran.
    expect(await message.locator('.text').textContent()).toBe(LINKS);
    expect(await message.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    expect(await page.locator('a[href^="javascript:" i], a[href^="data:" i]').count()).toBe(0);
    await screenshot(page, 'agent-readable-links');
  });

  it('gives an Arabic message and name their own direction, the question mark at the left end', async () => {
    await page.goto(`${run.base}/chats/${chatId}`);
    const text = page.locator('.message .text').filter({ hasText: ARABIC });
    await text.waitFor();
    expect(await text.getAttribute('dir')).toBe('auto');
    expect(await text.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    // Right to left: the last character (؟) is drawn left of the first (م).
    const [first, last] = await text.evaluate((el) => {
      const node = el.firstChild as Text;
      const at = (i: number) => {
        const r = document.createRange();
        r.setStart(node, i);
        r.setEnd(node, i + 1);
        return r.getBoundingClientRect().left;
      };
      return [at(0), at(node.length - 1)];
    });
    expect(last).toBeLessThan(first);
    // An English message stays left to right.
    expect(
      await page
        .locator('.message .text')
        .filter({ hasText: 'Order:' })
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe('ltr');
    // The names are isolated where they are shown: the header, the message's author, the chat list.
    expect(await page.locator('#conversation-title bdi').textContent()).toBe('سارة أحمد');
    expect(
      await page
        .locator('.message.visitor .author')
        .first()
        .evaluate((el) => el.tagName),
    ).toBe('BDI');
    expect(await page.locator(`[data-chat-id="${chatId}"] .chat-name bdi`).first().textContent()).toBe('سارة أحمد');
    await screenshot(page, 'agent-readable-arabic');
  });

  it("shows the chat's department and the visitor's language in the header and the visitor panel; none when there are none", async () => {
    await page.goto(`${run.base}/chats/${chatId}`);
    const header = page.locator('.conversation-header');
    await header.locator('.chat-department').getByText('Sales').waitFor();
    expect(await header.locator('.chat-language').textContent()).toContain('Arabic (ar)');
    const panel = page.locator('.visitor-panel');
    const field = (label: string) => panel.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
    expect(await field('Department').textContent()).toBe('Sales');
    expect(await field('Language').textContent()).toBe('Arabic (ar)');
    await screenshot(page, 'agent-readable-department-language');

    await page.goto(`${run.base}/chats/${plainChatId}`);
    await page
      .locator('#conversation-title')
      .getByText(/Anonymous|Visitor/)
      .waitFor();
    await page.locator('.message .text', { hasText: 'hello' }).waitFor();
    expect(await page.locator('.conversation-header .chat-department, .conversation-header .chat-language').count()).toBe(0);
    expect(await panel.locator('dt', { hasText: /^(Department|Language)$/ }).count()).toBe(0);
  });

  it('makes the links of an offline message links too, its Arabic text in its own direction', async () => {
    const widget = await createWidget(run.t, { name: 'Offline shop' });
    const s = await startSession(run.t, widget.widget_id);
    const left = await run.t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/offline`,
      headers: { authorization: `Bearer ${s.visitor_token}` },
      payload: { name: 'سارة', email: 'sara@example.com', message: `${ARABIC} https://shop.example/orders/12` },
    });
    expect(left.statusCode).toBe(200);
    await page.goto(`${run.base}/offline`);
    const card = page.locator('.card', { hasText: 'sara@example.com' });
    const text = card.locator('.text');
    await text.waitFor();
    expect(await text.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await text.getByRole('link', { name: 'https://shop.example/orders/12' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(await card.locator('.card-title bdi').textContent()).toBe('سارة');
    await screenshot(page, 'agent-readable-offline-message');
  });

  it('says a private note is seen by agents only, not that it failed', async () => {
    await page.goto(`${run.base}/chats/${chatId}`);
    const note = page.locator('.message.note');
    await note.waitFor();
    expect(await note.locator('.pill-note').textContent()).toBe('Private note — only agents see this');
    expect(await note.textContent()).not.toContain('not sent');
  });

  it("shows a visitor's initials where the photo cannot be loaded, never a broken image", async () => {
    const channel = await createChatChannel(run.t, { name: 'Mobile app' });
    const inbound = await postInbound(run.t, channel, {
      sender: { id: 'app-user-photo', name: 'Omar Haddad', photo: 'https://127.0.0.1:9/missing.png' },
      message: { type: 'text', text: 'my photo is gone' },
    });
    expect(inbound.statusCode).toBe(200);
    const row = await run.t.app.ctx.db
      .selectFrom('chats')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .select('chats.id')
      .where('visitors.external_id', '=', 'app-user-photo')
      .executeTakeFirstOrThrow();
    await page.goto(`${run.base}/chats/${row.id}`);
    const panel = page.locator('.visitor-panel');
    const initials = panel.getByRole('img', { name: 'Omar Haddad (no photo)' });
    await initials.waitFor();
    expect(await initials.textContent()).toBe('OH');
    expect(await panel.locator('img').count()).toBe(0);
    await screenshot(page, 'agent-readable-photo-initials');
  });

  it('gives Admin → Assignment its title, its content placed as on the other admin pages', async () => {
    await page.goto(`${run.base}/admin/departments`);
    const departments = page.getByRole('heading', { level: 1, name: 'Departments' });
    await departments.waitFor();
    const expected = await departments.boundingBox();
    await page.goto(`${run.base}/admin/assignment`);
    const title = page.getByRole('heading', { level: 1, name: 'Assignment' });
    await title.waitFor();
    await page.getByRole('region', { name: 'How new chats reach agents' }).waitFor();
    const box = await title.boundingBox();
    expect(box?.x).toBe(expected?.x);
    expect(box?.y).toBe(expected?.y);
    // Each form on its card, inside the page's margin.
    const card = await page.getByRole('region', { name: 'How new chats reach agents' }).boundingBox();
    expect(card?.x).toBe(expected?.x);
    expect(await page.getByRole('region', { name: 'How new chats reach agents' }).getAttribute('class')).toContain('card');
    await screenshot(page, 'agent-readable-assignment');
  });
});
