/**
 * The widget's static routes: the loader with the widget id and PUBLIC_URL
 * and its colour injected (safely), at /widget/<id>.js and /widget/<id> (and
 * the original's older /script/widget/<id>), cached 5 minutes
 * with an ETag, a script logging one console line for an unknown or disabled
 * widget; the frame page with its CSP (frame-ancestors from the channel's
 * allowed domains); svc-api.d.ts; immutable assets without traversal. Runs on a
 * fixture build, plus the registration in the real app on the real build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, asAdmin } from '../../../test/helpers/testApp.js';
import { ensureWidgetBuilt } from '../../../web/widget/build.js';
import { defaultWidgetDistDir, injectLoader, registerWidgetAssets } from './assets.js';

const LOADER = 'window.__out = { base: `__PARLEY_BASE__/widget/frame/` + "__PARLEY_WIDGET_ID__", quoted: \'__PARLEY_BASE__\', color: "__PARLEY_COLOR__" };';
type Out = { base: string; quoted: string; color: string };
const HTML =
  '<!doctype html><html><head><script type="module" crossorigin src="../assets/frame-abc123.js"></script></head><body><div id="app"></div></body></html>';

describe('widget assets (fixture build)', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let dir: string;
  let widgetId: string;
  let lockedId: string;

  const createWidget = async (payload: Record<string, unknown>): Promise<string> => {
    const res = await asAdmin(t, 'POST', '/api/v1/channels', { type: 'widget', name: 'Site', ...payload });
    expect(res.statusCode).toBe(201);
    return res.json().widget_id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://chat.example.com/parley' } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-widget-fixture-'));
    fs.mkdirSync(path.join(dir, 'frame'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'loader.js'), LOADER);
    fs.writeFileSync(path.join(dir, 'frame/index.html'), HTML);
    fs.writeFileSync(path.join(dir, 'assets/frame-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset');
    fs.writeFileSync(path.join(dir, 'svc-api.d.ts'), 'declare var svc_api: unknown;\n');
    app = Fastify({ logger: false });
    await registerWidgetAssets(app, t.app.ctx, { dir });
    await app.ready();
    widgetId = await createWidget({});
    lockedId = await createWidget({ allowed_domains: ['shop.example.com', '*.example.org'] });
  });

  afterAll(async () => {
    await app?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the loader with the widget id and PUBLIC_URL injected, cacheable for 5 minutes with an ETag', async () => {
    const res = await app.inject({ method: 'GET', url: `/widget/${widgetId}.js` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    const sandbox: { window: { __out?: Out } } = { window: {} };
    vm.runInNewContext(res.body, sandbox);
    expect(sandbox.window.__out).toEqual({
      base: `https://chat.example.com/parley/widget/frame/${widgetId}`,
      quoted: 'https://chat.example.com/parley',
      color: '#1a73e8',
    });

    const again = await app.inject({ method: 'GET', url: `/widget/${widgetId}.js`, headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("serves the loader at the original snippet's address too, without .js", async () => {
    const withJs = await app.inject({ method: 'GET', url: `/widget/${widgetId}.js` });
    const without = await app.inject({ method: 'GET', url: `/widget/${widgetId}` });
    expect(without.statusCode).toBe(200);
    expect(without.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(without.body).toBe(withJs.body);
  });

  it("serves the loader at the original's older address /script/widget/<id> exactly as at /widget/<id>: every variant, same headers", async () => {
    const reference = await app.inject({ method: 'GET', url: `/widget/${widgetId}` });
    for (const url of [
      `/script/widget/${widgetId}`,
      `/script/widget/${widgetId}.js`,
      `/script/widget/${widgetId}?v=2`,
      `/script/widget/${widgetId}.js?ver=8.7.1&lang=en`,
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      for (const h of ['content-type', 'cache-control', 'etag']) expect(res.headers[h], `${url} ${h}`).toBe(reference.headers[h]);
      expect(res.body, url).toBe(reference.body);
      const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': reference.headers.etag as string } });
      expect(again.statusCode, url).toBe(304);
    }
    const head = await app.inject({ method: 'HEAD', url: `/script/widget/${widgetId}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/javascript; charset=utf-8');
  });

  it("writes the channel's colour into the loader (svc_config.widget_color), the default without one; a change is a new version", async () => {
    const res = await asAdmin(t, 'POST', '/api/v1/channels', { type: 'widget', name: 'Orange', color: '#FF5500' });
    const { id, widget_id: orange } = res.json<{ id: number; widget_id: string }>();
    const colorOf = async (url: string) => {
      const sandbox: { window: { __out?: Out } } = { window: {} };
      const loader = await app.inject({ method: 'GET', url });
      vm.runInNewContext(loader.body, sandbox);
      return { color: sandbox.window.__out?.color, etag: loader.headers.etag };
    };
    const first = await colorOf(`/widget/${orange}.js`);
    expect(first.color).toBe('#ff5500');
    expect((await colorOf(`/script/widget/${orange}`)).color).toBe('#ff5500');
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/channels/${id}`, headers: bearer(t.adminToken), payload: { color: '#008800' } });
    expect(patched.statusCode).toBe(200);
    const second = await colorOf(`/widget/${orange}.js`);
    expect(second.color).toBe('#008800');
    expect(second.etag).not.toBe(first.etag);
    expect((await colorOf(`/widget/${widgetId}`)).color).toBe('#1a73e8');
  });

  it('answers an unknown or disabled widget with a script logging one console line naming it', async () => {
    const disabledId = await createWidget({ enabled: false });
    for (const id of ['nope123', disabledId]) {
      for (const url of [`/widget/${id}.js`, `/widget/${id}`, `/script/widget/${id}`, `/script/widget/${id}.js`]) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-cache');
        const lines: unknown[][] = [];
        vm.runInNewContext(res.body, { console: { warn: (...a: unknown[]) => lines.push(a) } });
        expect(lines).toEqual([[expect.stringContaining(`Parley: there is no chat widget "${id}"`)]]);
      }
    }
    for (const url of [`/widget/${widgetId}.css`, '/widget/a%22b.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toMatch(/^\/\* Parley: .* \*\/\n$/);
    }
  });

  it('serves svc-api.d.ts', async () => {
    const res = await app.inject({ method: 'GET', url: '/widget/svc-api.d.ts' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/typescript; charset=utf-8');
    expect(res.body).toBe('declare var svc_api: unknown;\n');
  });

  it('never lets an injected value end the string it is put in', () => {
    const out = injectLoader(LOADER, 'https://x.test/a\'b"c`${d}\\e</script>', 'id');
    const sandbox: { window: { __out?: Out } } = { window: {} };
    vm.runInNewContext(out, sandbox);
    expect(sandbox.window.__out?.quoted).toBe('https://x.test/a\'b"c`${d}\\e</script>');
    expect(out).not.toContain('</script>');
  });

  it('serves the frame page with a CSP whose frame-ancestors follow the allowed domains', async () => {
    const open = await app.inject({ method: 'GET', url: `/widget/frame/${widgetId}` });
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(open.body).toBe(HTML);
    const csp = String(open.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' wss://chat.example.com");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('unsafe');
    expect(open.headers['x-frame-options']).toBeUndefined();
    expect(open.headers['cache-control']).toBe('no-cache');

    const locked = await app.inject({ method: 'GET', url: `/widget/frame/${lockedId}` });
    const lockedCsp = String(locked.headers['content-security-policy']);
    expect(lockedCsp).toContain('https://shop.example.com');
    expect(lockedCsp).toContain('https://*.example.org');
    expect(lockedCsp).not.toContain('frame-ancestors *');
    expect(locked.headers.etag).not.toBe(open.headers.etag);

    // Unknown (deleted since a page cached its loader): the frame's app, which tells the loader the widget is gone.
    const unknown = await app.inject({ method: 'GET', url: '/widget/frame/nope123' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(HTML);
    expect(String(unknown.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('serves hashed assets immutable, and nothing outside the assets directory', async () => {
    const res = await app.inject({ method: 'GET', url: '/widget/assets/frame-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('console.log(1)');
    for (const url of ['/widget/assets/missing.js', '/widget/assets/..%2Fsecret.txt', '/widget/assets/%2e%2e%2fsecret.txt', '/widget/assets/.hidden']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('says how to build when the build is missing', async () => {
    const empty = Fastify({ logger: false });
    await registerWidgetAssets(empty, t.app.ctx, { dir: path.join(dir, 'missing') });
    const res = await empty.inject({ method: 'GET', url: `/widget/${widgetId}.js` });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await empty.close();
  });

  it('finds the build beside the server, from the sources and from dist/server', () => {
    expect(defaultWidgetDistDir()).toBe(path.resolve(import.meta.dirname, '../../../dist/web/widget'));
  });
});

describe('widget assets (real app, real build)', () => {
  let t: TestApp;

  beforeAll(async () => {
    await ensureWidgetBuilt();
    t = await createTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:9999' } });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('is registered: the loader, the frame page and its assets are served', async () => {
    const channel = await t.app.inject({ method: 'POST', url: '/api/v1/channels', headers: bearer(t.adminToken), payload: { type: 'widget', name: 'Site' } });
    const { widget_id: widgetId, script_url: scriptUrl } = channel.json<{ widget_id: string; script_url: string }>();
    const loader = await t.app.inject({ method: 'GET', url: new URL(scriptUrl).pathname });
    expect(loader.statusCode).toBe(200);
    expect(loader.body).toContain(`http://127.0.0.1:9999`);
    expect(loader.body).toContain(widgetId);
    expect(loader.body).not.toContain('__PARLEY_');
    const page = await t.app.inject({ method: 'GET', url: `/widget/frame/${widgetId}` });
    expect(page.statusCode).toBe(200);
    const assets = [...page.body.matchAll(/(?:src|href)="\.\.\/assets\/([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) expect((await t.app.inject({ method: 'GET', url: `/widget/assets/${a}` })).statusCode, a).toBe(200);
  });
});
