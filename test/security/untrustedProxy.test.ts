/**
 * Parley says when it is behind a proxy it does not trust (#31 item 14, the
 * notice part): with TRUST_PROXY unset the start logs that X-Forwarded-For is
 * ignored, and the first request from an address that sends the header logs
 * a warning naming that address and TRUST_PROXY, once per address; a listed
 * proxy's requests log nothing of the kind.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../helpers/testApp.js';
import { appWithRoutes } from './helpers.js';

async function appLogging(env: Record<string, string>): Promise<{ t: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const { t } = await appWithRoutes({ env, logger: { level: 'info', stream } });
  return { t, lines };
}

const proxyWarnings = (lines: string[]) => lines.filter((l) => l.includes('carry X-Forwarded-For'));

describe('a proxy TRUST_PROXY does not list', () => {
  let t: TestApp;
  let lines: string[];
  beforeAll(async () => {
    ({ t, lines } = await appLogging({ TRUST_PROXY: '' }));
  });
  afterAll(async () => t.close());

  it('is named in the log at its first request with X-Forwarded-For, once; the start says the header is ignored', async () => {
    expect(lines.some((l) => l.includes('TRUST_PROXY is unset: X-Forwarded-For is ignored'))).toBe(true);
    await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.1.1.1' });
    expect(proxyWarnings(lines)).toHaveLength(0);
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.1.1.2', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    }
    const warned = proxyWarnings(lines);
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0])).toMatchObject({ level: 40, proxy: '10.1.1.2' });
    expect(warned[0]).toContain('TRUST_PROXY does not list 10.1.1.2');
  });
});

describe('a listed proxy', () => {
  let t: TestApp;
  let lines: string[];
  beforeAll(async () => {
    ({ t, lines } = await appLogging({ TRUST_PROXY: '10.1.1.2' }));
  });
  afterAll(async () => t.close());

  it('is believed and not warned about', async () => {
    expect(lines.some((l) => l.includes('TRUST_PROXY is unset'))).toBe(false);
    await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.1.1.2', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxyWarnings(lines)).toHaveLength(0);
  });
});

describe('Admin → System (GET /api/v1/system)', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await appLogging({ TRUST_PROXY: '' }));
  });
  afterAll(async () => t.close());

  const system = (token = t.adminToken) => t.app.inject({ method: 'GET', url: '/api/v1/system', headers: bearer(token) });

  it('lists no untrusted proxy before one sent X-Forwarded-For, and TRUST_PROXY as set', async () => {
    const res = await system();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ trust_proxy: [], untrusted_proxies: [] });
  });

  it('names each address that sent X-Forwarded-For unlisted, with when and how often', async () => {
    const before = Date.now();
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.2.2.2', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.2.2.3', headers: { 'x-forwarded-for': '203.0.113.9' } });
    await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.2.2.4' }); // no header: not a proxy
    const body = (await system()).json<{ untrusted_proxies: Array<{ address: string; requests: number; first_seen_at: number; last_seen_at: number }> }>();
    expect(body.untrusted_proxies.map((p) => [p.address, p.requests])).toEqual([
      ['10.2.2.2', 3],
      ['10.2.2.3', 1],
    ]);
    expect(body.untrusted_proxies[0].first_seen_at).toBeGreaterThanOrEqual(before);
    expect(body.untrusted_proxies[0].last_seen_at).toBeGreaterThanOrEqual(body.untrusted_proxies[0].first_seen_at);
  });

  it('answers 403 to an agent and 401 without a token', async () => {
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: bearer(t.adminToken),
      payload: { name: 'Ag', email: 'ag-system@example.com', password: 'agent-password-1', role: 'agent' },
    });
    expect(agent.statusCode).toBe(201);
    expect((await system(await t.login('ag-system@example.com', 'agent-password-1'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/system' })).statusCode).toBe(401);
  });
});
