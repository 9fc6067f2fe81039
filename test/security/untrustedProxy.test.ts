/**
 * Parley says when it is behind a proxy it does not trust (#31 item 14, the
 * notice part): with TRUST_PROXY unset the start logs that X-Forwarded-For is
 * ignored, and the first request from an address that sends the header logs
 * a warning naming that address and TRUST_PROXY, once per address; a listed
 * proxy's requests log nothing of the kind.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/testApp.js';
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
