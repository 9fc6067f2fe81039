/**
 * What a visitor expects, in real Chromium: links in messages are clickable
 * and safe (http(s) only, a new tab, rel=noopener noreferrer), the rating
 * buttons are icons (no emoji glyphs) and work during the chat (changeable
 * until it is finished), the unread badge survives a page
 * change, and the page the visitor is on reaches the agents on every page
 * change (a full navigation and a single-page app's URL change alike). Once
 * the visitor gave an e-mail address, the widget offers "E-mail me this
 * conversation", and the copy goes to that address.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { StreamClient, streamUrl } from '../../test/helpers/realtime.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);
const unread = (page: Page) => page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getUnreadMessagesCount());

describe('what a visitor expects (browser)', () => {
  let env: WidgetEnv;
  let stream: StreamClient;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
    stream = await StreamClient.ready(streamUrl(env.base.replace(/^http/, 'ws'), env.t.adminToken));
  });

  afterAll(async () => {
    await stream?.close();
    await env?.close();
  });

  /** A visitor who wrote once; the agent accepted the chat. */
  async function chatting(page: Page): Promise<{ id: number }> {
    await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
    const frame = env.frame(page);
    await frame.getByLabel('Message').fill('Hello');
    await frame.getByRole('button', { name: 'Send' }).click();
    await env.until(page, (c) => named(c, 'svc_onMessageSent').length === 1);
    const chat = await env.chatOf(page, 'pending');
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
    return chat;
  }

  it('makes http(s) links clickable in a new tab, and nothing else; rates with icons', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      const chat = await chatting(page);
      const text = 'Track it at https://track.example.com/p?id=10&x=1. Not javascript:alert(1) nor ftp://files.example.com or <a href="javascript:x">this</a>';
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text })).status).toBe(201);
      const log = frame.getByRole('log');
      await expect.poll(() => log.getByRole('link', { name: 'https://track.example.com/p?id=10&x=1' }).count()).toBe(1);
      const link = log.getByRole('link', { name: 'https://track.example.com/p?id=10&x=1' });
      expect(await link.getAttribute('href')).toBe('https://track.example.com/p?id=10&x=1');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      // The rest is text, shown as written: no other link in that message.
      const msg = log.locator('.msg.agent').filter({ hasText: 'Track it at' });
      expect(await msg.locator('a').count()).toBe(1);
      expect(await msg.locator('p').textContent()).toBe(text);
      // A click opens a new tab, without a way back to the chat frame.
      const [opened] = await Promise.all([ctx.waitForEvent('page'), link.click()]);
      expect(await opened.evaluate(() => window.opener)).toBeNull();
      await opened.close();

      expect((await env.api('POST', `/api/v1/chats/${chat.id}/finish`, {})).status).toBe(200);
      const good = frame.getByRole('button', { name: 'Good' });
      await good.waitFor();
      // Icons, not emoji: the buttons hold an SVG and no text a font must draw.
      for (const name of ['Good', 'Bad']) {
        const b = frame.getByRole('button', { name });
        expect(await b.locator('svg').count()).toBe(1);
        expect((await b.textContent())?.trim()).toBe('');
      }
      await screenshot(page, 'widget-links-rating');
      await good.click();
      await waitFor(async () => (await env.api<{ rate: string | null }>('GET', `/api/v1/chats/${chat.id}`)).body.rate === 'positive');
    } finally {
      await ctx.close();
    }
  });

  it('rates during the chat, changes the rating until the chat is finished, and the server keeps it', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      const chat = await chatting(page);
      const rateOf = async () => (await env.api<{ rate: string | null }>('GET', `/api/v1/chats/${chat.id}`)).body.rate;
      // The agent took the chat: the rating is there while it goes on (icons, nothing pressed yet).
      const rating = frame.getByRole('group', { name: 'Rate this chat' });
      const good = rating.getByRole('button', { name: 'Good' });
      const bad = rating.getByRole('button', { name: 'Bad' });
      await expect.poll(() => good.isVisible()).toBe(true);
      expect(await good.getAttribute('aria-pressed')).toBe('false');
      expect(await bad.locator('svg').count()).toBe(1);
      await good.click();
      await waitFor(async () => (await rateOf()) === 'positive');
      await expect.poll(() => good.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => rating.getByText('Thank you for your rating.').isVisible()).toBe(true);
      // Still chatting: the visitor can write, and change his mind.
      expect(await frame.getByLabel('Message').isVisible()).toBe(true);
      await screenshot(page, 'widget-rating-during-chat');
      await bad.click();
      await waitFor(async () => (await rateOf()) === 'negative');
      await expect.poll(() => bad.getAttribute('aria-pressed')).toBe('true');
      expect(await good.getAttribute('aria-pressed')).toBe('false');
      // Finished: the rating given stays; no buttons to change it any more.
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/finish`, {})).status).toBe(200);
      await expect.poll(() => good.count()).toBe(0);
      await expect.poll(() => rating.getByText('Thank you for your rating.').isVisible()).toBe(true);
      expect(await rateOf()).toBe('negative');
    } finally {
      await ctx.close();
    }
  });

  it('keeps the unread badge across a page change, until the visitor opens the window', async () => {
    const ctx = await env.context();
    try {
      let page = await env.open(ctx);
      const chat = await chatting(page);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.close());
      await env.until(page, (c) => named(c, 'svc_onChangeState').some((s) => s.args[0] === 'chat/min'));
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Are you still there?' })).status).toBe(201);
      await expect.poll(() => unread(page)).toBe(1);

      // The next page of the site: the badge and the count are still there.
      page = await env.open(ctx, '/shop/cart');
      await expect.poll(() => unread(page)).toBe(1);
      await env.launcher(page, 'Chat with us, 1 unread').waitFor();
      // A message that arrives while the visitor is on the way counts too.
      await page.close();
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Hello?' })).status).toBe(201);
      page = await env.open(ctx, '/shop/checkout');
      await expect.poll(() => unread(page)).toBe(2);
      await env.launcher(page, 'Chat with us, 2 unread').click();
      await expect.poll(() => unread(page)).toBe(0);

      // Read: the next page shows no badge.
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.close());
      page = await env.open(ctx, '/shop');
      await env.launcher(page, 'Chat with us').waitFor();
      expect(await unread(page)).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it("sends the visitor's current page to the agents on every page change (navigation and pushState)", async () => {
    const ctx = await env.context();
    try {
      let page = await env.open(ctx);
      const chat = await chatting(page);
      const pageOf = async (): Promise<string | undefined> =>
        (await env.api<{ visitor: { session: { page?: { url: string } } } }>('GET', `/api/v1/chats/${chat.id}`)).body.visitor.session.page?.url;
      const announced = (url: string) =>
        waitFor(() =>
          stream.frames.find(
            (f) =>
              f.type === 'chat.updated' &&
              f.chat_id === chat.id &&
              (f.data as { change?: string }).change === 'page_changed' &&
              (f.data as { chat: { visitor: { session: { page?: { url: string } } } } }).chat.visitor.session.page?.url === url,
          ),
        );

      // A full navigation to another page of the site.
      await page.close();
      page = await env.open(ctx, '/shop/delivery');
      await announced(`${env.siteUrl}/shop/delivery`);
      expect(await pageOf()).toBe(`${env.siteUrl}/shop/delivery`);

      // A single-page app changes its URL without loading a page.
      await page.evaluate(() => history.pushState({}, '', '/shop/delivery/express'));
      await announced(`${env.siteUrl}/shop/delivery/express`);
      expect(await pageOf()).toBe(`${env.siteUrl}/shop/delivery/express`);
    } finally {
      await ctx.close();
    }
  });

  it('offers "E-mail me this conversation" once the visitor gave an e-mail address, and mails it there', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      const chat = await chatting(page);
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Happy to help.' })).status).toBe(201);
      await frame.getByRole('log').getByText('Happy to help.').waitFor();
      const offer = frame.getByRole('button', { name: 'E-mail me this conversation' });
      expect(await offer.count()).toBe(0);

      await frame.getByRole('button', { name: 'Your contact details' }).click();
      await frame.getByLabel('E-mail').fill('vic@example.com');
      await frame.getByRole('button', { name: 'Save' }).click();
      await offer.waitFor();
      await screenshot(page, 'widget-transcript-offer');
      await offer.click();
      // An address the visitor typed gets a confirmation link first (docs/SECURITY.md §10a).
      await frame.getByRole('status').filter({ hasText: 'We mailed a link to vic@example.com. Open it to confirm' }).waitFor();
      await screenshot(page, 'widget-transcript-confirm');
      type KeptMail = { type: string; to: string; chat_id: number; text: string };
      const confirmation = (await env.api<KeptMail[]>('GET', '/api/v1/mails')).body.find((m) => m.type === 'transcript_confirmation');
      expect(confirmation).toMatchObject({ to: 'vic@example.com', chat_id: chat.id });
      const link = /https?:\/\/\S+\/widget\/transcript\/[^\s)]+/.exec(confirmation?.text ?? '')?.[0];
      if (!link) throw new Error('no confirmation link in the mail');
      // The visitor opens the link and presses its button (server/routes/widget/transcriptMail.test.ts has the page): then it is sent.
      const press = await env.t.app.inject({
        method: 'POST',
        url: new URL(link).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(press.statusCode).toBe(200);
      // No SMTP_URL here: the mail is kept, to the visitor's address, with the conversation.
      const mails = await waitFor(async () => {
        const all = (await env.api<KeptMail[]>('GET', '/api/v1/mails')).body;
        return all.some((m) => m.type === 'chat_transcript') ? all : null;
      });
      const mail = mails.find((m) => m.type === 'chat_transcript');
      expect(mail).toMatchObject({ to: 'vic@example.com', chat_id: chat.id });
      expect(mail?.text).toContain(': Hello');
      expect(mail?.text).toContain(': Happy to help.');
    } finally {
      await ctx.close();
    }
  });
});
