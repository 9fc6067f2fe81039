/**
 * The widget as a screen reader gets it (Chromium's accessibility tree): the
 * frame on the page has a title, the window is a named dialog, every control
 * in it and the launcher have names, and a new message from the agent lands
 * in a polite live region that existed before it (so it is announced).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axTree, unnamedControls } from '../helpers/axTree.js';
import { WidgetEnv } from './harness.js';

describe('widget: screen readers (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  const frameTree = (page: Page) => axTree(page, '/widget/frame/');

  it('titles the frame, names the dialog and every control, and announces a new message', { timeout: 60_000 }, async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      // The page's tree: the launcher is a named button, the frame has a title.
      const launcher = env.launcher(page);
      await launcher.waitFor();
      const pageNodes = await axTree(page);
      expect(unnamedControls(pageNodes)).toEqual([]);
      expect(pageNodes.some((n) => n.role === 'button' && n.name === 'Chat with us')).toBe(true);
      expect(await page.locator('iframe[src*="/widget/frame/"]').getAttribute('title')).toBe('Chat');

      await launcher.click();
      const f = env.frame(page);
      await f.getByRole('dialog', { name: 'Chat' }).waitFor();
      let nodes = await frameTree(page);
      expect(nodes.some((n) => n.role === 'dialog' && n.name === 'Chat')).toBe(true);
      expect(unnamedControls(nodes)).toEqual([]);
      for (const name of ['Message', 'Send', 'Your contact details', 'Minimize the chat']) {
        expect(
          nodes.some((n) => n.name === name),
          name,
        ).toBe(true);
      }

      await f.getByLabel('Message', { exact: true }).fill('Where is my parcel?');
      await f.getByRole('button', { name: 'Send' }).click();
      await f.getByRole('log').getByText('Where is my parcel?').waitFor();
      // The live region is there before the agent's reply arrives: a region added with its content is not announced.
      const log = await f.getByRole('log', { name: 'Conversation' }).elementHandle();
      expect(await log.getAttribute('aria-live')).toBe('polite');

      const chat = await env.chatOf(page, 'pending');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'It left our warehouse today.' })).status).toBe(201);
      await f.getByRole('log').getByText('It left our warehouse today.').waitFor();
      expect(await log.evaluate((el) => el.isConnected && (el.textContent ?? '').includes('It left our warehouse today.'))).toBe(true);
      nodes = await frameTree(page);
      const reply = nodes.find((n) => n.name === 'It left our warehouse today.' && !n.ignored);
      expect(reply?.live).toBe('polite');
      // The agent's typing is announced the same way.
      expect(await f.locator('.typing').getAttribute('aria-live')).toBe('polite');
      expect(unnamedControls(nodes)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
