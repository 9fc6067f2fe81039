/**
 * The widget's department choice in real Chromium: a widget set to
 * "required" asks a German-speaking visitor for a department before the first
 * message, in German, with the departments' German names; sending without one
 * says so and sends nothing; the chosen department opens the chat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv } from './harness.js';

describe("the widget's department choice (browser)", () => {
  let env: WidgetEnv;
  let sales: number;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
    sales = (await env.api<{ id: number }>('POST', '/api/v1/departments', { name: 'Sales' })).body.id;
    await env.api('POST', '/api/v1/departments', { name: 'Billing' });
    const saved = await env.api('PUT', '/api/v1/routing', {
      widgets: [{ id: env.channel.id, department_choice: 'required' }],
      departments: [{ id: sales, names: { de: 'Vertrieb' } }],
    });
    expect(saved.status).toBe(200);
  });
  afterAll(() => env?.close());

  it('asks for a department in the visitor’s language before the first message, and opens the chat with it', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    try {
      const page = await env.open(ctx);
      await page.evaluate(() => (window as unknown as { svc_api: { open(): void } }).svc_api.open());
      const frame = env.frame(page);
      const select = frame.getByRole('combobox', { name: 'Abteilung' });
      await select.waitFor();
      expect(await select.locator('option').allTextContents()).toEqual(['Abteilung wählen', 'Billing', 'Vertrieb']);
      await frame.getByRole('textbox').fill('Ich hätte gern ein Angebot');
      await frame.getByRole('textbox').press('Enter');
      await frame.getByText('Bitte wählen Sie zuerst eine Abteilung.').waitFor();
      expect(await env.t.app.ctx.db.selectFrom('chats').selectAll().execute()).toEqual([]);
      await select.selectOption({ label: 'Vertrieb' });
      await screenshot(page, 'widget-department-choice');
      await frame.getByRole('textbox').fill('Ich hätte gern ein Angebot');
      await frame.getByRole('textbox').press('Enter');
      await expect
        .poll(async () => (await env.t.app.ctx.db.selectFrom('chats').select('department_id').executeTakeFirst())?.department_id, { timeout: 10_000 })
        .toBe(sales);
      // The chat is open: no more question.
      await expect.poll(() => select.count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
