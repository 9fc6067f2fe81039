/**
 * Security headers: the agent app's HTML (`/` and its client routes) carries a
 * strict Content-Security-Policy (no inline or eval'd script, no plugins, no
 * <base>, never framed) with X-Frame-Options, Referrer-Policy and friends, and
 * has no inline script for the policy to block; the widget frame's policy
 * names only its own scripts and the `frame-ancestors` of the channel's
 * allowed domains; and every answer of every route the app registers — errors
 * included, with and without credentials — carries `X-Content-Type-Options: nosniff`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAgentAppDir } from '../../server/routes/app/agentApp.js';
import { defaultWidgetDistDir } from '../../server/routes/widget/assets.js';
import { addAgent } from '../helpers/accounts.js';
import { bearer, type TestApp } from '../helpers/testApp.js';
import { createWidget } from '../helpers/widget.js';
import { appWithRoutes, concreteUrl, type RouteEntry } from './helpers.js';
import { buildWorld, type World } from './world.js';

/** A policy as directive → sources. */
function parseCsp(header: string | string[] | number | undefined): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name.toLowerCase(), sources]),
  );
}

const UNSAFE_SOURCES = [
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'unsafe-hashes'",
  "'wasm-unsafe-eval'",
  '*',
  'data:',
  'blob:',
  'http:',
  'https:',
  "'strict-dynamic'",
];

/** No <script> without src, no inline event handler, no javascript: URL in the HTML. */
function expectNoInlineScript(html: string): void {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  for (const [, attrs, body] of scripts) {
    expect(attrs).toMatch(/\bsrc=/);
    expect(body.trim()).toBe('');
  }
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
}

describe('security headers', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let w: World;
  let params: Record<string, string>;

  beforeAll(async () => {
    ({ t, routes } = await appWithRoutes());
    w = await buildWorld(t);
    const agentAsset = fs.readdirSync(path.join(defaultAgentAppDir(), 'assets'))[0];
    const widgetAsset = fs.readdirSync(path.join(defaultWidgetDistDir(), 'assets'))[0];
    const [, , secret, publicId] = w.chatApi.path.split('/');
    params = {
      ':widgetId': w.widget.widget_id,
      ':script': `${w.widget.widget_id}.js`,
      ':file': widgetAsset,
      ':name': w.uploadName,
      ':secret': secret,
      ':publicId': publicId,
      '*': agentAsset,
    };
  });
  afterAll(() => t.close());

  it('gives the agent app a strict CSP and the companion headers, on / and on client routes', async () => {
    for (const url of ['/', '/chats/12', '/admin/channels?x=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = parseCsp(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      for (const directive of ['default-src', 'script-src', 'style-src', 'connect-src', 'font-src']) {
        for (const source of csp.get(directive) ?? [])
          if (directive !== 'connect-src' || !['ws:', 'wss:'].includes(source)) expect(UNSAFE_SOURCES, `${directive} ${source}`).not.toContain(source);
      }
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expectNoInlineScript(res.body);
    }
  });

  it("gives the widget frame a strict CSP whose frame-ancestors follow the channel's allowed domains", async () => {
    const limited = await createWidget(t, { name: 'Limited', allowed_domains: ['shop.example.com', '*.brand.example'] });
    for (const [widgetId, ancestors] of [
      [w.widget.widget_id, ['*']],
      [limited.widget_id, ["'self'", 'https://shop.example.com', 'http://shop.example.com', 'https://*.brand.example', 'http://*.brand.example']],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/widget/frame/${widgetId}` });
      expect(res.statusCode).toBe(200);
      const csp = parseCsp(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toEqual(ancestors);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'none'"]);
      expect(csp.get('connect-src')).toEqual(["'self'", 'ws://parley.test']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBeUndefined(); // it would override frame-ancestors in old browsers
      expectNoInlineScript(res.body);
    }
    // Narrowing the list takes effect at once, and the ETag changes with the policy.
    const first = await t.app.inject({ method: 'GET', url: `/widget/frame/${limited.widget_id}` });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${limited.id}`,
      headers: bearer(t.adminToken),
      payload: { allowed_domains: ['other.example'] },
    });
    const second = await t.app.inject({ method: 'GET', url: `/widget/frame/${limited.widget_id}`, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(second.statusCode).toBe(200);
    expect(parseCsp(second.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'self'", 'https://other.example', 'http://other.example']);
  });

  it('serves visitor uploads sandboxed, never sniffed, and as attachments unless images', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/widget/uploads/${w.uploadName}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(parseCsp(res.headers['content-security-policy']).get('sandbox')).toEqual([]);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+"$/);
  });

  it('sends X-Content-Type-Options: nosniff on every answer of every route, errors included', async () => {
    const admin = bearer(t.adminToken);
    const requests: Array<{ method: string; url: string; headers?: Record<string, string>; payload?: string }> = [];
    const throwaway = bearer(await t.login('admin@example.com', 'admin-password-1'));
    // Signing out everywhere ends every session of its agent: a throwaway agent's.
    const leaver = bearer((await addAgent(t, { email: 'headers-leaver@example.com' })).token);
    for (const route of routes.filter((r) => !r.websocket)) {
      const url = await concreteUrl(t, route.url, params);
      // Signing out here would end the admin's session for the rest of the sweep.
      const signedIn = url === '/api/v1/auth/logout' ? throwaway : url === '/api/v1/auth/logout-all' ? leaver : admin;
      const bodied = route.method !== 'GET' && route.method !== 'DELETE';
      for (const headers of [signedIn, {}, { accept: 'text/html' }]) {
        requests.push({
          method: route.method,
          url,
          headers: bodied ? { ...headers, 'content-type': 'application/json' } : headers,
          payload: bodied ? '{}' : undefined,
        });
      }
      // Broken input: not JSON, or ids that name nothing.
      if (bodied) requests.push({ method: route.method, url, headers: { ...signedIn, 'content-type': 'application/json' }, payload: '{not json' });
      if (/\/\d+(\/|$)/.test(url)) requests.push({ method: route.method, url: url.replace(/\/\d+(?=\/|$)/, '/999999'), headers: admin });
    }
    requests.push(
      { method: 'POST', url: '/api/v1/departments', headers: { ...admin, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Created' }) },
      { method: 'GET', url: '/no/such/route' },
      { method: 'GET', url: '/api/v1/no-such-route', headers: admin },
      { method: 'POST', url: '/api/v1/departments', headers: { ...admin, 'content-type': 'application/xml' }, payload: '<x/>' },
      {
        method: 'POST',
        url: '/api/v1/departments',
        headers: { ...admin, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      },
      { method: 'GET', url: '/widget/nope.js' },
      { method: 'GET', url: '/widget/frame/nope' },
      { method: 'GET', url: '/widget/assets/nope.js' },
      { method: 'GET', url: '/widget/uploads/nope' },
      { method: 'POST', url: w.chatApi.path, payload: 'not json' },
      { method: 'POST', url: w.chatApi.path, payload: 'x'.repeat(300 * 1024) },
      { method: 'GET', url: '/api/v1/stream' },
      { method: 'GET', url: `/widget/ws/${w.widget.widget_id}` },
    );
    const statuses = new Set<number>();
    for (const r of requests) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: r.headers ?? {},
        ...(r.payload === undefined ? {} : { payload: r.payload }),
      });
      statuses.add(res.statusCode);
      expect(res.statusCode, `${r.method} ${r.url} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers['x-content-type-options'], `${r.method} ${r.url} → ${res.statusCode}`).toBe('nosniff');
    }
    // The sweep reached answers of every kind.
    for (const status of [200, 201, 204, 400, 401, 404, 413, 415]) expect(statuses, String(status)).toContain(status);
  });
});
