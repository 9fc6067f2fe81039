/**
 * The callback form while no agent is online, in real Chromium: switching callbacks on is enough
 * (they get call time of their own), and the widget never promises "an agent will call you in a
 * moment": it says when the visitor will be called, from the callback hours, in the visitor's
 * language; outside those hours it says calls are not available and when they are.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const everyDay = (range: [string, string]) => Object.fromEntries(DAYS.map((d) => [d, [range]]));

describe('widget callback form while nobody is online (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('offline');
  });
  afterAll(async () => {
    await env?.close();
  });

  const openCallForm = async (ctx: BrowserContext): Promise<{ page: Page; form: ReturnType<ReturnType<WidgetEnv['frame']>['getByRole']> }> => {
    const page = await env.open(ctx);
    await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open({ start: 'call' }));
    const form = env.frame(page).getByRole('form');
    await form.waitFor();
    return { page, form };
  };

  it('says the calling hours, not "in a moment", and the thanks says them too', async () => {
    // Only switched on: no balance named, yet calls are available (10 hours of call time).
    const on = await env.api<{ callback: { balance_seconds: number } }>('PUT', '/api/v1/settings', {
      callback: { enabled: true, timezone: 'Europe/Berlin', hours: everyDay(['00:00', '24:00']) },
    });
    expect(on.body.callback.balance_seconds).toBe(36_000);
    const ctx = await env.context();
    try {
      const { page, form } = await openCallForm(ctx);
      const text = 'No agent is online right now. Leave your number and we will call you back during our calling hours: Mon–Sun 00:00–24:00 (Europe/Berlin).';
      await expect.poll(() => form.getByText(text).isVisible()).toBe(true);
      expect(await form.getByText(/in a moment/).count()).toBe(0);
      expect(await form.getByRole('alert').count()).toBe(0);
      await screenshot(page, 'widget-callback-offline-hours');
      await form.getByLabel('Phone').fill('+44 20 7946 0958');
      await form.getByRole('button', { name: 'Call me back' }).click();
      await expect
        .poll(() => form.getByRole('status').textContent())
        .toBe('Thank you! We will call you at +44 20 7946 0958 during our calling hours: Mon–Sun 00:00–24:00 (Europe/Berlin).');
      expect(await form.getByText(/shortly/).count()).toBe(0);
      await screenshot(page, 'widget-callback-offline-requested');
    } finally {
      await ctx.close();
    }
  });

  it('always open: "as soon as an agent is available"', async () => {
    expect((await env.api('PUT', '/api/v1/settings', { callback: { hours: null } })).status).toBe(200);
    const ctx = await env.context();
    try {
      const { form } = await openCallForm(ctx);
      await expect
        .poll(() => form.getByText('No agent is online right now. Leave your number and we will call you back as soon as one is available.').isVisible())
        .toBe(true);
      await form.getByLabel('Phone').fill('+1 555 010 0142');
      await form.getByRole('button', { name: 'Call me back' }).click();
      await expect.poll(() => form.getByRole('status').textContent()).toBe('Thank you! We will call you at +1 555 010 0142 as soon as an agent is available.');
    } finally {
      await ctx.close();
    }
  });

  it('outside the hours, in German: not available now, and when', async () => {
    const hour = new Date().getUTCHours();
    const start = (hour + 2) % 24;
    const range: [string, string] = [`${String(start).padStart(2, '0')}:00`, start === 23 ? '24:00' : `${String(start + 1).padStart(2, '0')}:00`];
    expect((await env.api('PUT', '/api/v1/settings', { callback: { timezone: 'UTC', hours: everyDay(range) } })).status).toBe(200);
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    try {
      const { page, form } = await openCallForm(ctx);
      const hours = `Mo–So ${range[0]}–${range[1]} (UTC)`;
      await expect.poll(() => form.getByRole('alert').textContent()).toBe(`Anrufe sind gerade nicht verfügbar. Unsere Rückrufzeiten: ${hours}.`);
      expect(
        await form
          .getByText(`Gerade ist kein Mitarbeiter online. Hinterlassen Sie Ihre Nummer, wir rufen Sie zu unseren Rückrufzeiten zurück: ${hours}.`)
          .count(),
      ).toBe(1);
      expect(await form.getByRole('button', { name: 'Rückruf anfordern' }).isDisabled()).toBe(true);
      await screenshot(page, 'widget-callback-outside-hours-de');
    } finally {
      await ctx.close();
    }
  });
});
