/** Widget safety: allowed domains (Origin, page, socket, frame-ancestors), rate limits in memory and in Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, StreamClient } from '../../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, postSession, startSession, visitorCall, visitorSocketUrl, type TestWidget } from '../../../test/helpers/widget.js';
import { frameAncestors } from '../../domain/widget/allowedDomains.js';
import { LIMITS } from './limits.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Sessions from one address until the first 429 (at most twice the limit: a Redis window may turn over once). */
async function sessionsUntilRefused(
  t: TestApp,
  widgetId: string,
  ip: string,
): Promise<{ allowed: number; refusal: { status: number; body: { error: { code: string; message: string } }; retryAfter: unknown } }> {
  const cap = LIMITS.sessionPerIp.capacity;
  for (let i = 0; i < 2 * cap + 1; i++) {
    const res = await postSession(t, widgetId, { ip });
    if (res.statusCode !== 200) return { allowed: i, refusal: { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] } };
  }
  throw new Error('never refused');
}

describe('widget safety', () => {
  let t: TestApp;
  let base: string;
  let open: TestWidget;
  let guarded: TestWidget;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    open = await createWidget(t, { name: 'Anywhere' });
    guarded = await createWidget(t, { name: 'Guarded', allowed_domains: ['shop.example.com', '*.brand.example'] });
  });
  afterAll(() => t.close());

  it('refuses a session from an Origin or page whose host is not allowed (403), accepts allowed ones and our own', async () => {
    const from = (origin: string | undefined, url = 'https://shop.example.com/') =>
      postSession(t, guarded.widget_id, { headers: origin ? { origin } : {}, page: { url } });
    const evil = await from('https://evil.example');
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error).toMatchObject({ code: 'origin_not_allowed', message: expect.stringContaining('evil.example') });
    expect((await from('https://brand.example', 'https://brand.example/')).statusCode).toBe(403); // *. means subdomains
    expect((await from(undefined, 'https://evil.example/page')).statusCode).toBe(403);
    expect((await from('https://shop.example.com')).statusCode).toBe(200);
    expect((await from('https://www.brand.example', 'https://www.brand.example/x')).statusCode).toBe(200);
    expect((await from('http://parley.test')).statusCode).toBe(200); // the frame itself, on PUBLIC_URL
    expect(
      (await postSession(t, open.widget_id, { headers: { origin: 'https://anything.example' }, page: { url: 'https://anything.example/' } })).statusCode,
    ).toBe(200);
  });

  it('refuses the socket from a foreign Origin before the upgrade, and other visitor calls too', async () => {
    const s = await startSession(t, guarded.widget_id);
    await expect(StreamClient.open(visitorSocketUrl(base, guarded.widget_id, s.visitor_token), { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const ok = await StreamClient.ready(visitorSocketUrl(base, guarded.widget_id, s.visitor_token), { origin: 'https://shop.example.com' });
    await ok.close();
    const res = await visitorCall(
      t,
      guarded.widget_id,
      s.visitor_token,
      'messages',
      { type: 'text', text: 'x' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(res.statusCode).toBe(403);
  });

  it('gives the frame route its frame-ancestors', () => {
    const row = (domains: string[] | undefined) => ({ options_json: JSON.stringify(domains ? { allowed_domains: domains } : {}) });
    expect(frameAncestors(row(undefined))).toBe('frame-ancestors *');
    expect(frameAncestors(row([]))).toBe('frame-ancestors *');
    expect(frameAncestors(row(['shop.example.com', '*.brand.example']))).toBe(
      "frame-ancestors 'self' https://shop.example.com http://shop.example.com https://*.brand.example http://*.brand.example",
    );
  });

  it('answers 429 with a readable sentence after too many messages from one visitor', async () => {
    const s = await startSession(t, open.widget_id);
    const { capacity, windowMs } = LIMITS.messagePerVisitor;
    const started = Date.now();
    let sent = 0;
    let res = await visitorCall(t, open.widget_id, s.visitor_token, 'messages', { type: 'text', text: 'm0' });
    while (res.statusCode === 201 && sent < 2 * capacity) {
      sent++;
      res = await visitorCall(t, open.widget_id, s.visitor_token, 'messages', { type: 'text', text: `m${sent}` });
    }
    // A token bucket: the full burst, plus what refilled while the test ran.
    expect(sent).toBeGreaterThanOrEqual(capacity);
    expect(sent).toBeLessThanOrEqual(capacity + Math.ceil(((Date.now() - started) * capacity) / windowMs) + 1);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toEqual({ code: 'too_many_requests', message: 'You are sending messages too quickly; please wait a moment and try again.' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another visitor is not held back.
    const other = await startSession(t, open.widget_id);
    expect((await visitorCall(t, open.widget_id, other.visitor_token, 'messages', { type: 'text', text: 'fine' })).statusCode).toBe(201);
  });

  it('answers 429 after too many sessions from one address', async () => {
    const started = Date.now();
    const { allowed, refusal } = await sessionsUntilRefused(t, open.widget_id, '192.0.2.77');
    // A token bucket: the full burst, plus what refilled while the test ran.
    const refilled = ((Date.now() - started) * LIMITS.sessionPerIp.capacity) / LIMITS.sessionPerIp.windowMs;
    expect(allowed).toBeGreaterThanOrEqual(LIMITS.sessionPerIp.capacity);
    expect(allowed).toBeLessThanOrEqual(LIMITS.sessionPerIp.capacity + Math.ceil(refilled) + 1);
    expect(refusal).toMatchObject({ status: 429, body: { error: { code: 'too_many_requests', message: expect.stringMatching(/too quickly/) } } });
    expect((await postSession(t, open.widget_id, { ip: '192.0.2.78' })).statusCode).toBe(200);
  }, 120_000);
});

describe('widget rate limits shared through Redis', () => {
  it('counts one address across instances of a deployment', async () => {
    // One instant for both instances: the counting window cannot turn over during the test.
    const at = Date.now();
    const a = await createTestApp({ env: { REDIS_URL }, clock: () => at });
    const b = await createTestApp({ env: { REDIS_URL }, store: a.store, clock: () => at });
    try {
      const widget = await createWidget(a);
      const half = Math.floor(LIMITS.sessionPerIp.capacity / 2);
      for (let i = 0; i < half; i++) expect((await postSession(a, widget.widget_id, { ip: '192.0.2.99' })).statusCode).toBe(200);
      // The second instance continues the same count.
      const { allowed, refusal } = await sessionsUntilRefused(b, widget.widget_id, '192.0.2.99');
      expect(allowed).toBe(LIMITS.sessionPerIp.capacity - half);
      expect(refusal.status).toBe(429);
      expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await b.close();
      await a.close();
      await a.store.cleanup();
    }
  });
});
