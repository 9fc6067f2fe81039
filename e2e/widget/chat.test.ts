/**
 * A whole widget chat in real Chromium with an agent working through the API:
 * the visitor writes (svc_onMessageSent), the agent accepts (svc_onAccept),
 * types and replies (shown in the frame), the visitor types (the agent's
 * stream sees it), introduces himself (svc_onIntroduction, getContactInfo),
 * sends a picture, rates the finished chat; a reload continues the same chat;
 * a cut socket loses nothing and doubles nothing.
 */
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { StreamClient, streamUrl } from '../../test/helpers/realtime.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);

/** A 2×2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

async function send(frame: FrameLocator, text: string): Promise<void> {
  await frame.getByLabel('Message').fill(text);
  await frame.getByRole('button', { name: 'Send' }).click();
}

/** How many messages of the conversation show exactly this text. */
const shown = (frame: FrameLocator, text: string) => frame.getByRole('log').getByText(text, { exact: true }).count();

describe('widget chat (browser)', () => {
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

  it('carries a whole chat: message, accept, typing both ways, reply, introduction, picture, rating', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      await env.launcher(page, 'Chat with us').click();
      await send(frame, 'Hello, my order has not arrived');
      let calls = await env.until(page, (c) => named(c, 'svc_onMessageSent').length === 1);
      expect(named(calls, 'svc_onClientStartChat')).toHaveLength(1);
      await expect.poll(() => shown(frame, 'Hello, my order has not arrived')).toBe(1);
      const chat = await env.chatOf(page, 'pending');
      expect((await env.api<{ page: { url: string } | null }>('GET', `/api/v1/chats/${chat.id}`)).body.page?.url).toBe(`${env.siteUrl}/shop`);

      // The agent presses Reply.
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      calls = await env.until(page, (c) => named(c, 'svc_onAccept').length === 1);
      await expect.poll(() => frame.getByRole('heading', { name: 'Administrator' }).isVisible()).toBe(true);

      // Typing, agent → visitor, then the reply.
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/typing`, { typing: true })).status).toBe(204);
      await expect.poll(() => frame.getByText('Administrator is typing…').isVisible()).toBe(true);
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Sorry about that! Let me check.' })).status).toBe(201);
      await expect.poll(() => shown(frame, 'Sorry about that! Let me check.')).toBe(1);
      await expect.poll(() => frame.getByText('Administrator is typing…').count()).toBe(0);
      calls = await env.until(page, (c) => named(c, 'svc_onMessageReceived').length === 1);
      expect(named(calls, 'svc_onMessageSent')).toHaveLength(1);
      // Text is text: markup an agent writes is shown, never run.
      const markup = '<img src=x onerror="parent.__xss=1"><b>not bold</b>';
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: markup })).status).toBe(201);
      await expect.poll(() => shown(frame, markup)).toBe(1);
      expect(await frame.getByRole('log').locator('b, img[src="x"]').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

      // Typing, visitor → agent.
      const seen = stream.frames.length;
      await frame.getByLabel('Message').pressSequentially('It was order 10', { delay: 20 });
      await waitFor(() => stream.frames.slice(seen).find((f) => f.type === 'typing' && f.chat_id === chat.id && f.data.typing === true));
      await frame.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => shown(frame, 'It was order 10')).toBe(1);

      // The contacts form: svc_onIntroduction, getContactInfo, the agent sees the name.
      await frame.getByRole('button', { name: 'Introduce yourself' }).click();
      const form = frame.getByRole('form', { name: 'Your contact details' });
      await form.getByLabel('Name').fill('Maria Garcia');
      await form.getByLabel('E-mail').fill('maria@example.com');
      await form.getByRole('button', { name: 'Save' }).click();
      calls = await env.until(page, (c) => named(c, 'svc_onIntroduction').length === 1);
      expect(named(calls, 'svc_onIntroduction')[0].args[0]).toMatchObject({ client_name: 'Maria Garcia', email: 'maria@example.com' });
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getContactInfo())).toEqual({
        client_name: 'Maria Garcia',
        email: 'maria@example.com',
        phone: null,
        description: null,
      });
      await waitFor(async () => (await env.api<{ visitor: { name: string | null } }>('GET', `/api/v1/chats/${chat.id}`)).body.visitor.name === 'Maria Garcia');

      // setContactInfo from the page updates the same info (no svc_onIntroduction: the page knows).
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.setContactInfo({ phone: '+1 555 010 0199', description: 'VIP' }));
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getContactInfo())).toMatchObject({
        phone: '+1 555 010 0199',
        description: 'VIP',
      });
      await waitFor(
        async () => (await env.api<{ visitor: { phone: string | null } }>('GET', `/api/v1/chats/${chat.id}`)).body.visitor.phone === '+1 555 010 0199',
      );

      // Minimized: agent messages count as unread (badge, getUnreadMessagesCount) until the visitor opens the window.
      const unread = () => page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getUnreadMessagesCount());
      await frame.getByRole('button', { name: 'Minimize the chat' }).click();
      await env.until(page, (c) => named(c, 'svc_onChangeState').some((s) => s.args[0] === 'chat/min'));
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Are you still there?' })).status).toBe(201);
      await expect.poll(unread).toBe(1);
      await env.launcher(page, 'Chat with us, 1 unread').click();
      await expect.poll(unread).toBe(0);
      await expect.poll(() => shown(frame, 'Are you still there?')).toBe(1);
      await expect.poll(() => frame.getByLabel('Message').evaluate((el) => el === document.activeElement)).toBe(true);

      // A picture: preview first, then sent as a photo message the agent gets.
      await frame.getByLabel('Attach a file').setInputFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: PNG });
      await expect.poll(() => frame.getByRole('img', { name: 'Preview of parcel.png' }).isVisible()).toBe(true);
      await frame.getByRole('button', { name: 'Send' }).click();
      const photo = await waitFor(async () => {
        const res = await env.api<{ messages: Array<{ type: string; file?: string; file_name?: string }> }>('GET', `/api/v1/chats/${chat.id}`);
        return res.body.messages.find((m) => m.type === 'photo') ?? null;
      });
      expect(photo.file_name).toBe('parcel.png');
      await expect.poll(() => frame.getByRole('log').getByRole('img', { name: 'parcel.png' }).isVisible()).toBe(true);
      // Too big: refused before sending, with a message.
      await frame
        .getByLabel('Attach a file')
        .setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
      await expect.poll(() => frame.getByRole('alert').filter({ hasText: 'too big' }).isVisible()).toBe(true);
      await screenshot(page, 'widget-chat');

      // The agent finishes; the visitor rates.
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/finish`, {})).status).toBe(200);
      await frame.getByRole('button', { name: 'Good' }).click();
      await expect.poll(() => frame.getByText('Thank you for your rating.').isVisible()).toBe(true);
      await waitFor(async () => (await env.api<{ rate: string | null }>('GET', `/api/v1/chats/${chat.id}`)).body.rate === 'positive');
      calls = await env.calls(page);
      expect(named(calls, 'svc_onMessageSent')).toHaveLength(1);
      expect(named(calls, 'svc_onAccept')).toHaveLength(1);
      expect(named(calls, 'svc_onLoadCallback')).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  it('continues the same chat after a reload and on the next page of the site', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/catalog');
      const number = await env.visitorNumber(page);
      const frame = env.frame(page);
      await env.launcher(page, 'Chat with us').click();
      await send(frame, 'First page question');
      await env.until(page, (c) => named(c, 'svc_onMessageSent').length === 1);
      const chat = await env.chatOf(page, 'pending');

      await page.reload();
      await env.until(page, (c) => named(c, 'svc_onLoadCallback').length === 1);
      expect(await env.visitorNumber(page)).toBe(number);
      // The window stays open across pages of the tab, with the conversation.
      await expect.poll(() => shown(env.frame(page), 'First page question')).toBe(1);
      await send(env.frame(page), 'Second question after reload');

      const next = await env.open(ctx, '/checkout');
      expect(await env.visitorNumber(next)).toBe(number);
      await env.launcher(next, 'Chat with us').click();
      await expect.poll(() => shown(env.frame(next), 'Second question after reload')).toBe(1);
      const detail = await env.api<{ messages: Array<{ text?: string }> }>('GET', `/api/v1/chats/${chat.id}`);
      expect(detail.body.messages.map((m) => m.text)).toEqual(expect.arrayContaining(['First page question', 'Second question after reload']));
      // Still the same chat: svc_onMessageSent is for the first message of a chat only.
      expect(named(await env.calls(page), 'svc_onMessageSent')).toHaveLength(0);
    } finally {
      await ctx.close();
    }
  });

  it('reconnects after the socket is cut and shows each message sent meanwhile exactly once', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      await env.launcher(page, 'Chat with us').click();
      await send(frame, 'Are you there?');
      const chat = await env.chatOf(page, 'pending');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      await env.until(page, (c) => named(c, 'svc_onAccept').length === 1);

      // Cut: the browser goes offline and the server drops every socket.
      await ctx.setOffline(true);
      for (const client of env.t.app.websocketServer.clients) client.terminate();
      await expect.poll(() => frame.getByText('Reconnecting…').isVisible()).toBe(true);
      const texts = ['One moment please', 'Found your order', 'It ships tomorrow'];
      for (const text of texts) expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text })).status).toBe(201);
      await page.waitForTimeout(500);
      for (const text of texts) expect(await shown(frame, text)).toBe(0);

      await ctx.setOffline(false);
      for (const text of texts) await expect.poll(() => shown(frame, text), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => frame.getByText('Reconnecting…').count()).toBe(0);
      // A second cut, resumed from the cursor: still once each.
      for (const client of env.t.app.websocketServer.clients) client.terminate();
      await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Anything else?' });
      await expect.poll(() => shown(frame, 'Anything else?'), { timeout: 15_000 }).toBe(1);
      await page.waitForTimeout(500);
      for (const text of [...texts, 'Anything else?', 'Are you there?']) expect(await shown(frame, text), text).toBe(1);
      const ids = await frame
        .getByRole('log')
        .locator('[data-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await ctx.close();
    }
  });
});
