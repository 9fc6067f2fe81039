/**
 * The agent app route: index.html with strict security headers for `/` and
 * client-side routes, immutable hashed assets, JSON 404s for the service's own
 * prefixes, and a 503 that says how to build when the build is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { registerErrorHandler } from '../../errors/handler.js';
import { defaultAgentAppDir, registerAgentApp } from './agentApp.js';

const HTML = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const JS = 'console.log("app");';
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function bareApp(dir: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  await registerAgentApp(app, { dir });
  await app.ready();
  return app;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/connect-src 'self' ws: wss:/);
  expect(csp).toMatch(/img-src 'self' https: data:/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('agent app route (fixture build)', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-agent-app-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), HTML);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), JS);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), 'body{}');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset');
    app = await bareApp(dir);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers index.html at / with strict security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(HTML);
    expectSecurityHeaders(res.headers);
    // `/` is the app whatever the client accepts.
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
  });

  it('answers index.html for client-side routes that accept HTML', async () => {
    for (const url of ['/chats/12', '/inbox/mine', '/admin/channels', '/archive?q=x', '/apix', '/whatever/deep/path']) {
      const res = await app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(HTML);
      expectSecurityHeaders(res.headers);
    }
  });

  it('keeps JSON 404s for API clients and for the service prefixes', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/chats/12', { accept: 'application/json' }],
      ['/chats/12', {}],
      ['/api/v1/nope', html],
      ['/api', html],
      ['/api/v2/chats?x=1', html],
      ['/wh/abc/def/status/x', html],
      ['/widget/nope', html],
      ['/healthz/extra', html],
      ['/metrics/x', html],
      ['/openapi.json/x', html],
    ];
    for (const [url, headers] of cases) {
      const res = await app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json().error.code, url).toBe('route_not_found');
      expect(res.headers['content-security-policy'], url).toBeUndefined();
    }
    const post = await app.inject({ method: 'POST', url: '/chats/12', headers: html });
    expect(post.statusCode).toBe(404);
  });

  it('serves hashed assets as immutable, and nothing outside assets/', async () => {
    const js = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe(JS);
    const css = await app.inject({ method: 'GET', url: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const url of ['/assets/missing.js', '/assets/%2e%2e%2fsecret.txt', '/assets/..%2fsecret.txt', '/assets/.hidden', '/assets/']) {
      const res = await app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('not an asset');
    }
    // A literal ../ is resolved by the URL parser before routing: it is the app path /secret.txt.
    expect((await app.inject({ method: 'GET', url: '/assets/../secret.txt', headers: html })).body).toBe(HTML);
  });

  it('answers 503 with how to build when the build is missing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-agent-missing-'));
    const missing = await bareApp(empty);
    try {
      const res = await missing.inject({ method: 'GET', url: '/', headers: html });
      expect(res.statusCode).toBe(503);
      expect(res.body).toMatch(/npm run build/);
      expectSecurityHeaders(res.headers);
      expect((await missing.inject({ method: 'GET', url: '/chats/3', headers: html })).statusCode).toBe(503);
      // The build appearing later is picked up without a restart.
      fs.writeFileSync(path.join(empty, 'index.html'), HTML);
      expect((await missing.inject({ method: 'GET', url: '/', headers: html })).statusCode).toBe(200);
    } finally {
      await missing.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('finds dist/web/agent from the TS sources', () => {
    expect(defaultAgentAppDir()).toBe(path.resolve(import.meta.dirname, '../../../dist/web/agent'));
  });
});

describe('agent app route in the real app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('leaves the API, health, metrics and OpenAPI routes alone', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/nope', headers: html });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'route_not_found', message: 'No route GET /api/v1/nope.' } });
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/nope', headers: html })).json().error.code).toBe('route_not_found');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: html })).statusCode).toBe(401);
    const health = await t.app.inject({ method: 'GET', url: '/healthz', headers: html });
    expect(health.json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json', headers: html })).headers['content-type']).toMatch(/json/);
  });

  it('serves the app (or the build hint) at / with the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect([200, 503]).toContain(res.statusCode);
    expectSecurityHeaders(res.headers);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const spa = await t.app.inject({ method: 'GET', url: '/admin/settings', headers: html });
    expect(spa.statusCode).toBe(res.statusCode);
  });
});
