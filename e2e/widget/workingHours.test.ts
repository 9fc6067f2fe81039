/**
 * Working hours for chat in real Chromium: a page already open goes offline
 * when an admin closes chat (chatMode() 'offline', svc_onChangeState, the
 * offline form), and comes back online at the opening minute with no reload —
 * the server's hours worker announces the opening, the socket tells the
 * frame. The app's clock is moved so that the opening minute is seconds away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const states = (calls: Call[]): unknown[] => calls.filter((c) => c.name === 'svc_onChangeState').map((c) => c.args[0]);

describe('working hours in the widget (browser)', () => {
  let env: WidgetEnv;
  let offset = 0;

  beforeAll(async () => {
    env = await WidgetEnv.start({ clock: () => Date.now() + offset });
    await env.setAgentStatus('online');
  });
  afterAll(() => env?.close());

  it('goes offline when chat closes and back online at opening time, without a reload', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const mode = () => page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.chatMode());
      expect(await mode()).toBe('online');

      // Chat opens at the minute `opening` (UTC), closed before it: the app's clock is put 4 s before it.
      let opening = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
      if (new Date(opening).toISOString().slice(11, 16) >= '23:58') opening += 5 * 60_000;
      const iso = new Date(opening).toISOString();
      offset = opening - 4_000 - Date.now();
      const saved = await env.api<{ chat_hours: unknown }>('PUT', '/api/v1/settings', {
        chat_hours: { timezone: 'UTC', weekly: {}, exceptions: [{ date: iso.slice(0, 10), ranges: [[iso.slice(11, 16), '24:00']], note: 'Opening day' }] },
      });
      expect(saved.status).toBe(200);

      await expect.poll(mode, { timeout: 5_000 }).toBe('offline');
      await env.until(page, (calls) => states(calls).length === 1);
      expect(states(await env.calls(page))).toEqual(['label']);
      await env.launcher(page, 'Leave us a message').click();
      await expect.poll(() => env.frame(page).getByRole('form', { name: 'Leave a message' }).isVisible()).toBe(true);
      await screenshot(page, 'widget-closed-by-working-hours');

      // The opening minute comes (about 4 s later): the frame hears it on its socket.
      await expect.poll(mode, { timeout: 15_000, interval: 200 }).toBe('online');
      expect(Date.now() + offset).toBeGreaterThanOrEqual(opening);
      await expect.poll(() => env.frame(page).getByRole('form', { name: 'Leave a message' }).isVisible()).toBe(false);
      await expect.poll(async () => states(await env.calls(page))).toEqual(['label', 'chat', 'chat']);
      await screenshot(page, 'widget-opened-by-working-hours');
    } finally {
      await env.api('PUT', '/api/v1/settings', { chat_hours: null });
      offset = 0;
      await ctx.close();
    }
  });
});
