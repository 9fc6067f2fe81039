/**
 * The widget's default title is the company's name (#36 item 2): set in
 * Admin → Settings (account_name), shown in the chat window's header when
 * the widget's appearance sets no title of its own; a widget's own title
 * still wins. Screenshots in test-artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

describe('widget title: the company name (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    await env?.close();
  });

  it("shows the company's name as the title when the widget sets none, its own title otherwise", async () => {
    expect((await env.api('PUT', '/api/v1/settings', { account_name: 'Acme Bikes' })).status).toBe(200);
    expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { appearance: { title: null, language: 'en' } })).status).toBe(200);
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    try {
      const page = await env.open(ctx);
      await env.launcher(page, 'Chat with us').click();
      const frame = env.frame(page);
      await expect.poll(() => frame.getByRole('heading', { name: 'Acme Bikes' }).isVisible()).toBe(true);
      await screenshot(page, 'widget-title-company-name');

      expect((await env.api('PATCH', `/api/v1/channels/${env.channel.id}`, { appearance: { title: 'Bike help' } })).status).toBe(200);
      const again = await env.open(ctx);
      await env.launcher(again, 'Chat with us').click();
      await expect.poll(() => env.frame(again).getByRole('heading', { name: 'Bike help' }).isVisible()).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
