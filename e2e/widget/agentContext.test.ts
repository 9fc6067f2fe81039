/**
 * Issue #20 "Context" in real Chromium, an agent app and a visitor's widget
 * side by side: the visitor panel follows the visitor to another page of a
 * single-page site (current page, pages of the visit, live); the agent
 * attaches a file to a reply and the visitor sees it in the widget; the
 * visitor rates the chat after it was finished and the agent sees the rating
 * at once, in the chat's header.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../test/helpers/testApp.js';
import { ensureAgentAppBuilt, signIn } from '../agent/harness.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

/** A 16×16 PNG (orange square). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGP436BAEmIY1TCqYfhqAAB/VJ8Q/YV/fgAAAABJRU5ErkJggg==', 'base64');

describe.skipIf(!chromiumAvailable())('agent context: the visit, files in replies, a late rating (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('follows the visitor, sends the visitor a file, and shows a rating given after the finish', { timeout: 120_000 }, async () => {
    const agentCtx = await env.context();
    const visitorCtx = await env.context();
    const shots: Page[] = [];
    try {
      // The visitor writes from the shop's home page.
      const site: Page = await env.open(visitorCtx, '/shop');
      const frame = env.frame(site);
      await env.launcher(site, 'Chat with us').click();
      await frame.getByLabel('Message').fill('Do you have this in blue?');
      await frame.getByRole('button', { name: 'Send' }).click();
      const chat = await env.chatOf(site, 'pending');

      const app = await agentCtx.newPage();
      shots.push(site, app);
      await signIn(app, env.base, ADMIN_EMAIL, ADMIN_PASSWORD);
      await app.goto(`${env.base}/chats/${chat.id}`);
      await app
        .locator('.conversation-header')
        .getByRole('button', { name: /^Reply/ })
        .click();
      const panel = app.getByRole('complementary');
      const current = panel.getByRole('region', { name: 'Current page' });
      await current.getByRole('link', { name: 'Acme shop' }).waitFor();
      const visit = panel.getByRole('region', { name: 'This visit' });
      expect(await visit.textContent()).toContain('Time on site');

      // A single-page site moves to another page: the panel follows without a reload.
      await site.evaluate(() => {
        history.pushState({}, '', '/shop/blue-shirt');
        document.title = 'Blue shirt';
      });
      await current.getByRole('link', { name: 'Blue shirt' }).waitFor({ timeout: 10_000 });
      expect(await current.getByRole('link', { name: 'Blue shirt' }).getAttribute('href')).toMatch(/\/shop\/blue-shirt$/);
      const visited = visit.getByRole('list', { name: 'Pages visited' });
      await expect
        .poll(() => visited.getByRole('listitem').allTextContents())
        .toEqual([expect.stringContaining('Blue shirt'), expect.stringContaining('Acme shop')]);
      await screenshot(app, 'agent-panel-follows-visitor');

      // The agent attaches a picture with a caption; the visitor sees it in the widget.
      await app.getByLabel('File to attach').setInputFiles({ name: 'blue-shirt.png', mimeType: 'image/png', buffer: PNG });
      await app.getByText('blue-shirt.png').first().waitFor();
      await app.getByRole('textbox', { name: 'Message to the visitor' }).fill('Here it is in blue');
      await app.getByRole('button', { name: 'Send' }).click();
      const sent = app.locator('.message.agent img[alt="blue-shirt.png"]');
      await sent.waitFor();
      const src = await sent.getAttribute('src');
      expect(src).toMatch(new RegExp(`^${env.base}/widget/uploads/[a-z0-9]{24}-blue-shirt\\.png$`));
      const inWidget = frame.locator('img.photo');
      await expect
        .poll(() => inWidget.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc), { timeout: 10_000 })
        .toBe(src);
      await frame.getByText('Here it is in blue').waitFor();
      await screenshot(site, 'widget-agent-file');
      await screenshot(app, 'agent-reply-with-file');

      // The agent finishes; the visitor rates afterwards; the agent's header shows it live.
      await app.getByRole('button', { name: 'Finish chat' }).click();
      await app.getByRole('form', { name: 'Finish chat' }).getByRole('button', { name: 'Finish', exact: true }).click();
      await app.getByText('This chat is finished.').waitFor();
      expect(await app.locator('.conversation-header .rating').count()).toBe(0);
      await frame.getByRole('button', { name: 'Good' }).click();
      const rating = app.locator('.conversation-header .rating');
      await rating.waitFor({ timeout: 10_000 });
      expect(await rating.getAttribute('data-rating')).toBe('positive');
      expect(await rating.textContent()).toContain('Rated good');
      await screenshot(app, 'agent-rating-after-finish');
    } catch (err) {
      for (const [i, p] of shots.entries()) await screenshot(p, `failed-agent-context-${i}`);
      throw err;
    } finally {
      await agentCtx.close();
      await visitorCtx.close();
    }
  });
});
