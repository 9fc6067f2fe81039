/**
 * The widget's page API in real Chromium (docs/WIDGET.md): svc_api exists right
 * after the loader runs and keeps calls made before the frame is ready, the
 * svc_on* callbacks fire at the spec's moments, synchronous answers follow the
 * spec, legacy functions never throw; the launcher, the open chat and the
 * offline form are screenshotted into test-artifacts/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { WidgetEnv, type Call } from './harness.js';

const SPEC_FUNCTIONS = [
  'open',
  'close',
  'chatMode',
  'getContactInfo',
  'getVisitorNumber',
  'setContactInfo',
  'setCustomData',
  'setRules',
  'setUserToken',
  'showProactiveInvitation',
  'startCall',
  'isCallbackEnabled',
  'sendOfflineMessage',
];
const LEGACY_FUNCTIONS = ['getUtm', 'getUnreadMessagesCount', 'clearHistory', 'setWidgetColor', 'sendPageTitle', 'setClientAttributes'];

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);
const frameBox = async (page: Page) => page.locator('iframe[title="Chat"]').boundingBox();

describe('widget page API (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  it('defines every function synchronously on load and keeps the calls made before the frame is ready', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/shop?utm_source=newsletter&utm_campaign=spring', {
        onLoaderLoad: `
          var api = window.svc_api, early = window.__early = { types: {}, results: {} };
          for (var k in api) early.types[k] = typeof api[k];
          early.beforeReady = !window.__calls.some(function (c) { return c.name === 'svc_onLoadCallback'; });
          early.results.contact = api.setContactInfo({ name: 'Early Bird', email: 'early@example.com', phone: '+1 555 010 0199' });
          early.results.custom = api.setCustomData([{ title: 'Plan', content: 'Gold' }, { key: 'Order', content: '#1001' }]);
          early.results.token = api.setUserToken('user-42');
          early.results.contactInfo = api.getContactInfo();
          api.setClientAttributes({ plan: 'gold', seats: 3 });
          api.sendPageTitle('Spring sale');
          api.getVisitorNumber(function (err, n) { early.number = [err, n]; });`,
      });
      const early = await waitFor(() =>
        page.evaluate(() => {
          const e = (window as unknown as { __early: { number?: unknown } & Record<string, unknown> }).__early;
          return e.number ? e : null;
        }),
      );
      const types = early.types as Record<string, string>;
      for (const f of [...SPEC_FUNCTIONS, ...LEGACY_FUNCTIONS]) expect(types[f], f).toBe('function');
      expect(early.beforeReady).toBe(true);
      const results = early.results as Record<string, unknown>;
      expect(results.contact).toEqual({ result: 'ok' });
      expect(results.custom).toEqual({ result: 'ok' });
      expect(results.token).toEqual({ result: 'ok', token: 'user-42' });
      expect(results.contactInfo).toEqual({ client_name: 'Early Bird', email: 'early@example.com', phone: '+1 555 010 0199', description: null });
      const [err, number] = early.number as [unknown, unknown];
      expect(err).toBeNull();
      expect(Number.isInteger(number)).toBe(true);
      expect(number as number).toBeGreaterThanOrEqual(1);

      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getUtm())).toEqual({ source: 'newsletter', campaign: 'spring' });
      // Once ready, the mirrored state still has what the page set before.
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.getContactInfo())).toEqual(results.contactInfo);

      // The early calls reached the server: the chat the visitor opens carries them.
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
      const frame = env.frame(page);
      await frame.getByLabel('Message').fill('Hello from an early bird');
      await frame.getByRole('button', { name: 'Send' }).click();
      const chat = await env.chatOf(page, 'pending');
      const detail = await waitFor(async () => {
        const res = await env.api<{ visitor: Record<string, unknown>; custom_data: Array<Record<string, unknown>> }>('GET', `/api/v1/chats/${chat.id}`);
        return res.body.custom_data?.length ? res.body : null;
      });
      expect(detail.visitor).toMatchObject({ name: 'Early Bird', email: 'early@example.com' });
      expect(detail.custom_data[0]).toMatchObject({ title: 'Plan', content: 'Gold' });
      expect(detail.visitor.session).toMatchObject({
        attributes: { plan: 'gold', seats: 3 },
        page: { title: 'Spring sale' },
        utm: { source: 'newsletter', campaign: 'spring' },
      });
    } finally {
      await ctx.close();
    }
  });

  it('calls svc_onLoadCallback once, then svc_onOpen, svc_onClose, svc_onChangeState and svc_onResizeCallback as the window opens and closes', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const first = await env.until(page, (c) => named(c, 'svc_onResizeCallback').length > 0);
      const launcher = named(first, 'svc_onResizeCallback')[0].args[0] as { width: number; height: number };
      expect(launcher.width).toBeGreaterThan(60);
      expect(launcher.height).toBeGreaterThan(30);
      await expect.poll(() => env.launcher(page, 'Chat with us').isVisible()).toBe(true);
      // The launcher is on the page (#svc_chat_widget); the chat window's frame is 0×0 while closed.
      const button = await env.launcher(page, 'Chat with us').boundingBox();
      expect(Math.abs((button?.width ?? 0) + 32 - launcher.width)).toBeLessThanOrEqual(1);
      expect(Math.abs((button?.height ?? 0) + 32 - launcher.height)).toBeLessThanOrEqual(1);
      expect((await frameBox(page))?.width ?? 0).toBe(0);
      await screenshot(page, 'widget-launcher');

      await env.launcher(page, 'Chat with us').click();
      let calls = await env.until(page, (c) => named(c, 'svc_onOpen').length === 1 && named(c, 'svc_onResizeCallback').length === 2);
      expect(named(calls, 'svc_onChangeState').map((c) => c.args[0])).toEqual(['chat']);
      expect(named(calls, 'svc_onResizeCallback')[1].args[0]).toEqual({ width: 380, height: 640 });
      expect(await frameBox(page)).toMatchObject({ width: 380, height: 640 });
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      await screenshot(page, 'widget-open');

      await env.frame(page).getByRole('button', { name: 'Minimize the chat' }).click();
      calls = await env.until(page, (c) => named(c, 'svc_onClose').length === 1 && named(c, 'svc_onResizeCallback').length === 3);
      expect(named(calls, 'svc_onChangeState').map((c) => c.args[0])).toEqual(['chat', 'label']);

      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 2);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.close());
      calls = await env.until(page, (c) => named(c, 'svc_onClose').length === 2);

      // open({start: 'call'}) opens the callback form: state 'call'.
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open({ start: 'call' }));
      calls = await env.until(page, (c) => named(c, 'svc_onChangeState').length === 5);
      expect(named(calls, 'svc_onChangeState').map((c) => c.args[0])).toEqual(['chat', 'label', 'chat', 'label', 'call']);
      await expect.poll(() => env.frame(page).getByRole('form', { name: 'Call me back' }).isVisible()).toBe(true);
      expect(named(calls, 'svc_onLoadCallback')).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  it('fills a phone-width screen with the open chat', async () => {
    const ctx = await env.context({ width: 375, height: 700 });
    try {
      const page = await env.open(ctx);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
      const calls = await env.until(
        page,
        (c) => named(c, 'svc_onOpen').length === 1 && named(c, 'svc_onResizeCallback').some((r) => (r.args[0] as { width: number }).width === 375),
      );
      expect(named(calls, 'svc_onResizeCallback').at(-1)?.args[0]).toEqual({ width: 375, height: 700 });
      await expect.poll(async () => (await env.frame(page).getByRole('dialog', { name: 'Chat' }).boundingBox())?.width).toBe(375);
      await screenshot(page, 'widget-phone');
    } finally {
      await ctx.close();
    }
  });

  it('answers chatMode() online or offline as the agents change their status', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const mode = () => page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.chatMode());
      expect(await mode()).toBe('online');
      await env.setAgentStatus('offline');
      await expect.poll(mode, { timeout: 10_000 }).toBe('offline');
      await expect.poll(() => env.launcher(page, 'Leave us a message').isVisible()).toBe(true);
      await env.setAgentStatus('online');
      await expect.poll(mode, { timeout: 10_000 }).toBe('online');
    } finally {
      await env.setAgentStatus('online');
      await ctx.close();
    }
  });

  it('gives each visitor a sequential number through getVisitorNumber', async () => {
    const numbers: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const ctx = await env.context();
      try {
        const page = await env.open(ctx);
        numbers.push(
          await page.evaluate(
            () => new Promise((resolve) => (window as unknown as { svc_api: Api }).svc_api.getVisitorNumber((err: unknown, n: unknown) => resolve([err, n]))),
          ),
        );
      } finally {
        await ctx.close();
      }
    }
    const [[e1, n1], [e2, n2]] = numbers as Array<[unknown, number]>;
    expect(e1).toBeNull();
    expect(e2).toBeNull();
    expect(Number.isInteger(n1) && Number.isInteger(n2)).toBe(true);
    expect(n2).toBeGreaterThan(n1);
  });

  it('answers setCustomData, setUserToken, startCall and sendOfflineMessage at once, as the spec says', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      const results = await page.evaluate(() => {
        const api = (window as unknown as { svc_api: Api }).svc_api;
        return {
          customOk: api.setCustomData([{ title: 'Cart', content: '3 items' }]),
          customString: api.setCustomData('not an array'),
          customObject: api.setCustomData({ title: 'x' }),
          customNone: api.setCustomData(),
          token: api.setUserToken('a-hard-to-guess-id'),
          tokenEmpty: api.setUserToken(''),
          tokenNone: api.setUserToken(),
          callBad: api.startCall('call me maybe'),
          offlineNoMessage: api.sendOfflineMessage({ name: 'Ann', email: 'ann@example.com' }),
          offlineBadEmail: api.sendOfflineMessage({ email: 'not-an-address', message: 'Hi' }),
          offlineNotObject: api.sendOfflineMessage('hello'),
        };
      });
      expect(results.customOk).toEqual({ result: 'ok' });
      for (const r of [results.customString, results.customObject, results.customNone])
        expect(r).toEqual({ result: 'fail', reason: 'Custom data must be array.' });
      expect(results.token).toEqual({ result: 'ok', token: 'a-hard-to-guess-id' });
      expect(results.tokenEmpty).toEqual({ result: 'fail', token: '' });
      expect(results.tokenNone).toEqual({ result: 'fail', token: false });
      expect(results.callBad).toEqual({ result: 'fail', reason: 'Invalid phone number format' });
      expect(results.offlineNoMessage).toEqual({ result: 'fail', error: 'message is required.' });
      expect(results.offlineBadEmail).toEqual({ result: 'fail', error: 'email is not a valid e-mail address.' });
      expect(results.offlineNotObject).toMatchObject({ result: 'fail' });
    } finally {
      await ctx.close();
    }
  });

  it('never throws from any function, whatever the arguments, legacy ones included', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/legacy?utm_source=ads&utm_medium=cpc');
      const out = await page.evaluate(
        ({ names }) => {
          const api = (window as unknown as { svc_api: Api }).svc_api;
          const circular: Record<string, unknown> = {};
          circular.self = circular;
          const weird: unknown[][] = [[], [undefined], [null], [42], ['text'], [{}], [[]], [circular], [() => 1], [Symbol('s')], [{ start: 'call' }, 7]];
          const thrown: string[] = [];
          for (const name of names) {
            for (const args of weird) {
              try {
                api[name](...args);
              } catch (e) {
                thrown.push(`${name}: ${String(e)}`);
              }
            }
          }
          api.close();
          return {
            thrown,
            utm: api.getUtm(),
            unread: api.getUnreadMessagesCount(),
            color: api.setWidgetColor('#ff5500'),
            title: api.sendPageTitle('Checkout'),
            attributes: api.setClientAttributes({ plan: 'gold', seats: 3, trial: false }),
          };
        },
        { names: [...LEGACY_FUNCTIONS.filter((n) => n !== 'clearHistory'), ...SPEC_FUNCTIONS] },
      );
      expect(out.thrown).toEqual([]);
      expect(out.utm).toEqual({ source: 'ads', medium: 'cpc' });
      expect(out.unread).toBe(0);
      // setWidgetColor('#ff5500') recoloured the launcher (after the ~40 calls queued before it, one request each: slow on a busy machine).
      const launcher = env.launcher(page, 'Chat with us');
      await expect.poll(() => launcher.evaluate((el) => getComputedStyle(el).backgroundColor), { timeout: 15_000 }).toBe('rgb(255, 85, 0)');
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.clearHistory());
      // Still alive after all that: the frame answers.
      const n = await page.evaluate(
        () => new Promise((resolve) => (window as unknown as { svc_api: Api }).svc_api.getVisitorNumber((_e: unknown, num: unknown) => resolve(num))),
      );
      expect(Number.isInteger(n)).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('shows the offline form when nobody is online, and sendOfflineMessage stores an offline message', async () => {
    await env.setAgentStatus('offline');
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.chatMode())).toBe('offline');
      await env.launcher(page, 'Leave us a message').click();
      const form = env.frame(page).getByRole('form', { name: 'Leave a message' });
      await form.getByLabel('Name').fill('Olga');
      await form.getByLabel('E-mail').fill('olga@example.com');
      await form.getByLabel('Message').fill('Do you ship to Norway?');
      await screenshot(page, 'widget-offline-form');
      await form.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => env.frame(page).getByText('We have your message').isVisible()).toBe(true);

      const result = await page.evaluate(() =>
        (window as unknown as { svc_api: Api }).svc_api.sendOfflineMessage({
          name: 'Piotr',
          email: 'piotr@example.com',
          phone: '+48 600 000 000',
          message: 'Call me about a bulk order',
        }),
      );
      expect(result).toEqual({ result: 'ok' });
      const list = await waitFor(async () => {
        const res = await env.api<Array<Record<string, unknown>>>('GET', '/api/v1/offline-messages');
        return res.status === 200 && res.body.length >= 2 ? res.body : null;
      });
      expect(list.map((m) => m.message)).toEqual(expect.arrayContaining(['Do you ship to Norway?', 'Call me about a bulk order']));
      expect(list.find((m) => m.message === 'Call me about a bulk order')).toMatchObject({ name: 'Piotr', email: 'piotr@example.com' });
    } finally {
      await env.setAgentStatus('online');
      await ctx.close();
    }
  });

  it('shows a proactive invitation from showProactiveInvitation', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.showProactiveInvitation('Need help choosing a size?', null));
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1);
      await expect.poll(() => env.frame(page).getByText('Need help choosing a size?').isVisible()).toBe(true);
      await env.frame(page).getByLabel('Message').fill('Yes, for the blue jacket');
      await env.frame(page).getByRole('button', { name: 'Send' }).click();
      await env.until(page, (c) => named(c, 'svc_onMessageSent').length === 1);
    } finally {
      await ctx.close();
    }
  });

  it('shows the invitation of the first matching setRules rule, once per page view', async () => {
    const ctx = await env.context();
    try {
      const page = await ctx.newPage();
      await page.goto(
        env.hostPage('/pricing', {
          head: `<script>window.svc_onLoadCallback = function () {
            window.__calls.push({ name: 'svc_onLoadCallback', args: [] });
            window.__rules = [
              svc_api.setRules({ rules: [
                { id: 'elsewhere', conditions: { url_contains: '/checkout' }, action: { type: 'invitation', text: 'Not here' } },
                { id: 'pricing', conditions: { seconds_on_page: 1, url_matches: '/pric(e|ing)' }, action: { type: 'invitation', text: 'Questions about our prices?' } },
                { id: 'later', conditions: { seconds_on_page: 2 }, action: { type: 'invitation', text: 'Never twice' } }
              ] }),
              svc_api.setRules('nonsense')
            ];
          };</script>`,
        }),
      );
      await env.until(page, (c) => named(c, 'svc_onOpen').length === 1, 15_000);
      expect(await page.evaluate(() => (window as unknown as { __rules: unknown }).__rules)).toEqual([
        { result: 'ok' },
        { result: 'fail', reason: 'Rules must be an object.' },
      ]);
      await expect.poll(() => env.frame(page).getByText('Questions about our prices?').isVisible()).toBe(true);
      await page.waitForTimeout(2500);
      expect(await env.frame(page).getByText('Never twice').count()).toBe(0);
      expect(await env.frame(page).getByText('Not here').count()).toBe(0);
      expect(named(await env.calls(page), 'svc_onOpen')).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  it('removes the frame and calls svc_onWidgetDestroy when the widget is deleted', async () => {
    const made = await env.api<{ id: number; install_snippet: string }>('POST', '/api/v1/channels', { type: 'widget', name: 'Short-lived' });
    const ctx = await env.context();
    try {
      const page = await env.open(ctx, '/gone', { snippet: made.body.install_snippet });
      expect((await env.api('DELETE', `/api/v1/channels/${made.body.id}`)).status).toBeLessThan(300);
      // A fresh session (clearHistory forgets the visitor) finds no widget.
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.clearHistory());
      await env.until(page, (c) => named(c, 'svc_onWidgetDestroy').length === 1);
      expect(await page.locator('iframe[title="Chat"]').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.sendOfflineMessage({ message: 'hello?' }))).toEqual({
        result: 'fail',
        error: 'The chat is not available: the widget was removed or disabled.',
      });
    } finally {
      await ctx.close();
    }
  });

  it('posts nothing to a page that embeds the frame claiming another origin', async () => {
    const ctx = await env.context();
    try {
      const page = await ctx.newPage();
      const frameUrl = `${env.base}/widget/frame/${env.channel.widget_id}`;
      await page.goto(
        env.hostPage('/embed', {
          snippet: `<script>window.__got = [];
            addEventListener('message', function (e) { window.__got.push({ data: e.data, origin: e.origin }); });</script>
            <iframe id="honest" src="${frameUrl}#${encodeURIComponent(env.siteUrl)}"></iframe>
            <iframe id="forged" src="${frameUrl}#${encodeURIComponent('https://victim.example')}"></iframe>`,
        }),
      );
      // The honest frame says hello to its real parent; the forged one stays silent.
      const hellos = () =>
        page.evaluate(() =>
          (window as unknown as { __got: Array<{ data: { event?: string }; origin: string }> }).__got
            .filter((m) => m.data?.event === 'hello')
            .map((m) => m.origin),
        );
      await expect.poll(hellos).toEqual([env.base]);
      await page.waitForTimeout(1000);
      expect(await hellos()).toEqual([env.base]);
    } finally {
      await ctx.close();
    }
  });

  it("starts the session from the page's details in the frame's address, without waiting for the loader's init, only for the real parent", async () => {
    const ctx = await env.context();
    try {
      const page = await ctx.newPage();
      const frameUrl = `${env.base}/widget/frame/${env.channel.widget_id}`;
      const init = (origin: string) =>
        encodeURIComponent(`${origin}&${JSON.stringify({ page: { url: `${origin}/early?x=1`, title: 'Early' }, utm: {}, started: Date.now() })}`);
      // No loader on this page: nobody answers the frames' hello. The forged frame's parent is not what its address claims.
      const sessions: string[] = [];
      ctx.on('request', (r) => void (r.url().endsWith('/session') && sessions.push(r.frame().url())));
      await page.goto(
        env.hostPage('/early', {
          snippet: `<script>window.__got = [];
            addEventListener('message', function (e) { window.__got.push({ event: e.data && e.data.event, origin: e.origin }); });</script>
            <iframe id="honest" src="${frameUrl}#${init(env.siteUrl)}"></iframe>
            <iframe id="forged" src="${frameUrl}#${init('https://victim.example')}"></iframe>`,
        }),
      );
      const readies = () =>
        page.evaluate(() => (window as unknown as { __got: Array<{ event?: string; origin: string }> }).__got.filter((m) => m.event === 'ready').length);
      await expect.poll(readies, { timeout: 10_000 }).toBe(1);
      await page.waitForTimeout(1000);
      expect(await readies()).toBe(1);
      expect(sessions.map((u) => decodeURIComponent(u.split('#')[1]).split('&')[0])).toEqual([env.siteUrl]);
    } finally {
      await ctx.close();
    }
  });
});
