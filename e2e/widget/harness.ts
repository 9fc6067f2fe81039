/**
 * Browser-test harness for the widget: the real app listening on a free port
 * (PUBLIC_URL = that address), a widget channel made through the admin API,
 * a customer's host page served from a second server (another origin) with
 * the install snippet and every svc_on* callback recording its calls into
 * window.__calls, and Debian's Chromium driven by playwright-core.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { ensureWidgetBuilt } from '../../web/widget/build.js';
import type { Clock } from '../../server/lib/time.js';

export const CALLBACKS = [
  'svc_onLoadCallback',
  'svc_onOpen',
  'svc_onClose',
  'svc_onMessageSent',
  'svc_onAccept',
  'svc_onIntroduction',
  'svc_onResizeCallback',
  'svc_onCallStart',
  'svc_onCallEnd',
  'svc_onChangeState',
  'svc_onMessageReceived',
  'svc_onClientStartChat',
  'svc_onWidgetDestroy',
] as const;

export interface Call {
  name: string;
  args: unknown[];
}

export interface WidgetChannel {
  id: number;
  widget_id: string;
  script_url: string;
  install_snippet: string;
}

export interface HostPageOptions {
  /** Script run when the loader has loaded (the `load` event of the snippet's script element). */
  onLoaderLoad?: string;
  /** Extra HTML in <head>, before the snippet. */
  head?: string;
  /** The widget to include (default: the harness's channel). */
  snippet?: string;
}

export interface ApiResult<T> {
  status: number;
  body: T;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function hostPageHtml(snippet: string, opts: HostPageOptions = {}): string {
  const record = `window.__calls = [];
${JSON.stringify(CALLBACKS)}.forEach(function (n) {
  window[n] = function () { window.__calls.push({ name: n, args: JSON.parse(JSON.stringify(Array.prototype.slice.call(arguments))) }); };
});`;
  const onLoad = opts.onLoaderLoad
    ? `<script>document.querySelector('script[src*="/widget/"]').addEventListener('load', function () { ${opts.onLoaderLoad} });</script>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme shop</title>
<script>${record}</script>${opts.head ?? ''}
</head><body style="font-family: sans-serif; background: #fafafa"><h1>Acme shop</h1><p>Everything you need, delivered.</p>
${snippet}
${onLoad}
</body></html>`;
}

export class WidgetEnv {
  private constructor(
    readonly t: TestApp,
    /** http://127.0.0.1:<port>: PUBLIC_URL of the app. */
    readonly base: string,
    readonly channel: WidgetChannel,
    /** http://127.0.0.1:<other port>: the customer's site. */
    readonly siteUrl: string,
    private readonly site: http.Server,
    private readonly pages: Map<string, string>,
    readonly browser: Browser,
  ) {}

  /** `clock`: the app's clock (a test that needs a given minute moves it). */
  static async start(opts: { clock?: Clock } = {}): Promise<WidgetEnv> {
    await ensureWidgetBuilt();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ env: { PUBLIC_URL: base }, clock: opts.clock });
    await t.app.listen({ port, host: '127.0.0.1' });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/channels', headers: bearer(t.adminToken), payload: { type: 'widget', name: 'Acme site' } });
    if (res.statusCode !== 201) throw new Error(`widget channel: ${res.statusCode} ${res.body}`);
    const channel = res.json<WidgetChannel>();
    const pages = new Map<string, string>();
    const site = http.createServer((req, reply) => {
      const html = pages.get((req.url ?? '/').split('?')[0]);
      reply.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      reply.end(html ?? 'not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const browser = await launchBrowser();
    return new WidgetEnv(t, base, channel, siteUrl, site, pages, browser);
  }

  /** Serves a host page at `path` (a query string is allowed) of the customer's site; returns its URL. */
  hostPage(path: string, opts: HostPageOptions = {}): string {
    this.pages.set(path.split('?')[0], hostPageHtml(opts.snippet ?? this.channel.install_snippet, opts));
    return this.siteUrl + path;
  }

  /** A fresh browser profile (its own storage: a new visitor). */
  async context(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
    return this.browser.newContext({ viewport });
  }

  /** Opens a host page and waits for svc_onLoadCallback. */
  async open(ctx: BrowserContext, path = '/shop', opts: HostPageOptions = {}): Promise<Page> {
    const page = await ctx.newPage();
    page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
    await page.goto(this.hostPage(path, opts));
    await this.until(page, (calls) => calls.some((c) => c.name === 'svc_onLoadCallback'));
    return page;
  }

  frame(page: Page): FrameLocator {
    return page.frameLocator('iframe[title="Chat"]');
  }

  /** The default launcher the loader draws on the page (in #svc_chat_widget's shadow root), by its accessible name. */
  launcher(page: Page, name = 'Chat with us'): Locator {
    return page.locator('#svc_chat_widget').getByRole('button', { name });
  }

  async calls(page: Page): Promise<Call[]> {
    return page.evaluate(() => (window as unknown as { __calls: Call[] }).__calls);
  }

  async until(page: Page, cond: (calls: Call[]) => boolean, timeoutMs = 10_000): Promise<Call[]> {
    return waitFor(async () => {
      const calls = await this.calls(page);
      return cond(calls) ? calls : null;
    }, timeoutMs);
  }

  /** The agent/admin API with the bootstrap administrator's token (or another). */
  async api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = this.t.adminToken): Promise<ApiResult<T>> {
    const res = await this.t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: (res.body ? res.json() : null) as T };
  }

  async setAgentStatus(status: 'online' | 'away' | 'offline'): Promise<void> {
    const res = await this.api('PUT', '/api/v1/me/status', { status });
    if (res.status !== 200) throw new Error(`status: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** The visitor number of the page's widget (getVisitorNumber). */
  async visitorNumber(page: Page): Promise<number> {
    return page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          (window as unknown as { svc_api: { getVisitorNumber(cb: (e: unknown, n: number) => void): void } }).svc_api.getVisitorNumber((_e, n) => resolve(n)),
        ),
    );
  }

  /** The newest chat of the page's visitor (optionally in a status), once it exists. */
  async chatOf(page: Page, status?: 'pending' | 'active' | 'finished'): Promise<{ id: number; status: string }> {
    const number = await this.visitorNumber(page);
    return waitFor(async () => {
      const res = await this.api<Array<{ id: number; status: string; channel_id: number; visitor: { number: number } }>>(
        'GET',
        `/api/v1/chats${status ? `?status=${status}` : ''}`,
      );
      return res.body.find((c) => c.channel_id === this.channel.id && c.visitor.number === number) ?? null;
    });
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    this.site.closeAllConnections();
    await new Promise<void>((resolve) => this.site.close(() => resolve()));
    await this.t.close();
  }
}
