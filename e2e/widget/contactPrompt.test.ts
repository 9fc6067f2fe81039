/**
 * The chat's contact prompt ("Leave your contact details…") in real Chromium: shown after the first
 * message of a visitor we know nothing about, never again once the visitor gave an e-mail address,
 * whether in the contact form or in the offline form before agents came online, also after a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

const PROMPT = 'Leave your contact details so that we can reach you.';

describe('widget contact prompt (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('does not come back once the visitor gave an e-mail in the offline form', async () => {
    await env.setAgentStatus('offline');
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
      const form = frame.getByRole('form', { name: 'Leave a message' });
      await form.getByLabel('E-mail').fill('olga@example.com');
      await form.getByLabel('Message').fill('Is anyone there?');
      await form.getByRole('button', { name: 'Send' }).click();
      await frame.getByText('We have your message and will get back to you.').waitFor();

      // An agent comes online; the visitor writes in the chat.
      await env.setAgentStatus('online');
      await frame.getByRole('button', { name: 'Send' }).waitFor();
      await frame.getByLabel('Message').fill('Now I can chat?');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByRole('log').getByText('Now I can chat?').waitFor();
      await page.waitForTimeout(500);
      expect(await frame.getByText(PROMPT).count()).toBe(0);
      await screenshot(page, 'widget-no-contact-prompt-after-offline-email');

      await page.reload();
      await env.until(page, (c) => c.some((x) => x.name === 'svc_onLoadCallback'));
      await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
      await env.frame(page).getByRole('log').getByText('Now I can chat?').waitFor();
      expect(await env.frame(page).getByText(PROMPT).count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('asks a visitor we know nothing about, and stops once the e-mail is given in the contact form', async () => {
    await env.setAgentStatus('online');
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const frame = env.frame(page);
      await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
      await frame.getByLabel('Message').fill('Hello');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByText(PROMPT).waitFor();
      await frame.getByRole('button', { name: 'Introduce yourself' }).click();
      await frame.getByRole('form', { name: 'Your contact details' }).getByLabel('E-mail').fill('vic@example.com');
      await frame.getByRole('form', { name: 'Your contact details' }).getByRole('button', { name: 'Save' }).click();
      await frame.getByLabel('Message').fill('Here is more');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByRole('log').getByText('Here is more').waitFor();
      expect(await frame.getByText(PROMPT).count()).toBe(0);
      await page.reload();
      await env.until(page, (c) => c.some((x) => x.name === 'svc_onLoadCallback'));
      await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
      await env.frame(page).getByRole('log').getByText('Here is more').waitFor();
      expect(await env.frame(page).getByText(PROMPT).count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
