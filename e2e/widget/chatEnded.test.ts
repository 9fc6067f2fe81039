/**
 * The end of a chat as the visitor sees it, in real Chromium: when the agent finishes the chat the
 * widget says so (and who), offers to start a new one, and the visitor's next message starts a new
 * chat; in the visitor's language too (German).
 */
import type { BrowserContext, FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

async function send(frame: FrameLocator, label: string, button: string, text: string): Promise<void> {
  await frame.getByLabel(label).fill(text);
  await frame.getByRole('button', { name: button }).click();
}

describe('widget: the agent finishes the chat (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    await env?.close();
  });

  const finishedChat = async (ctx: BrowserContext, words: { label: string; button: string }) => {
    const page = await env.open(ctx);
    const frame = env.frame(page);
    await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
    await send(frame, words.label, words.button, 'Where is my parcel?');
    const chat = await env.chatOf(page, 'pending');
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'It left the warehouse today.' })).status).toBe(201);
    await frame.getByRole('log').getByText('It left the warehouse today.').waitFor();
    expect(await frame.locator('.ended').count()).toBe(0);
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/finish`, {})).status).toBe(200);
    return { page, frame, chat };
  };

  it('says the agent ended the chat, and the next message starts a new one', async () => {
    const ctx = await env.context();
    try {
      const { page, frame, chat } = await finishedChat(ctx, { label: 'Message', button: 'Send' });
      const ended = frame.locator('.ended[role="status"]');
      await expect.poll(() => ended.locator('p').textContent()).toBe('Administrator ended the chat. Write below to start a new one.');
      // The earlier conversation stays readable above it; the rating asks once more.
      expect(await frame.getByRole('log').getByText('It left the warehouse today.').count()).toBe(1);
      expect(await frame.getByRole('group', { name: 'Rate this chat' }).count()).toBe(1);
      await screenshot(page, 'widget-chat-ended');

      await ended.getByRole('button', { name: 'Start a new chat' }).click();
      await expect.poll(() => frame.getByLabel('Message').evaluate((el) => el === document.activeElement)).toBe(true);
      await send(frame, 'Message', 'Send', 'One more question, please');
      const next = await env.chatOf(page, 'pending');
      expect(next.id).not.toBe(chat.id);
      await expect.poll(() => ended.count()).toBe(0);
      await screenshot(page, 'widget-chat-new-after-end');
    } finally {
      await ctx.close();
    }
  });

  it("says it in the visitor's language (German)", async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    try {
      const { page, frame } = await finishedChat(ctx, { label: 'Nachricht', button: 'Senden' });
      const ended = frame.locator('.ended[role="status"]');
      await expect.poll(() => ended.locator('p').textContent()).toBe('Administrator hat den Chat beendet. Schreiben Sie unten, um einen neuen zu beginnen.');
      expect(await ended.getByRole('button', { name: 'Neuen Chat beginnen' }).count()).toBe(1);
      await screenshot(page, 'widget-chat-ended-de');
    } finally {
      await ctx.close();
    }
  });
});
