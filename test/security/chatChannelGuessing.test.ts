/**
 * Guessing chat-channel addresses is throttled (server/routes/chatChannel/chatChannel.ts): after
 * 20 404s from one client address within a minute, every /wh guess of that
 * address is 429 with Retry-After until the minute that began with its first
 * 404 is over; so is every wrong random string for one CHANNEL_PUBLIC_ID after
 * 20 from any addresses. A request naming an existing channel with its right
 * random string is never refused (#32 item 3: one stale channel in a customer
 * system, or anyone behind a shared proxy, cut off live channels). Other
 * addresses are not held back, and a refused request stores nothing. With
 * REDIS_URL every instance of a deployment counts together. Addresses vary
 * through X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESS_LIMIT } from '../../server/routes/chatChannel/chatChannel.js';
import { createChatChannel, textMessage, type ChatChannel } from '../helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';
import { tableRows } from './helpers.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = GUESS_LIMIT.capacity;

function wh(t: TestApp, method: 'GET' | 'POST', url: string, ip: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: { 'x-forwarded-for': ip }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
}

/** Wrong-secret, unknown-channel and unknown-route requests, in turn: each a 404. */
function guess(t: TestApp, channel: ChatChannel, ip: string, n: number) {
  const [, , secret, publicId] = channel.path.split('/');
  const urls = [`/wh/${secret}x/${publicId}`, `/wh/${secret}/unknown${n}/status`, `/wh/guess${n}`, `/wh/${'a'.repeat(40)}/${publicId}`];
  const url = urls[n % urls.length];
  return url.endsWith('/status') ? wh(t, 'GET', url, ip) : wh(t, 'POST', url, ip, textMessage('g', 'guess'));
}

describe('chat channel: guessing addresses is rate-limited per client address', () => {
  let now = Date.parse('2026-03-02T10:00:00Z');
  let t: TestApp;
  let channel: ChatChannel;
  const stored = async () => [await tableRows(t, 'visitors'), await tableRows(t, 'chats'), await tableRows(t, 'messages'), await tableRows(t, 'events')];

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    channel = await createChatChannel(t);
  });
  afterAll(() => t.close());

  it(`answers the first ${LIMIT} 404s, then 429 with Retry-After for the rest of the minute; a right request is still served`, async () => {
    const ip = '203.0.113.10';
    const start = now;
    for (let n = 0; n < LIMIT; n++) {
      now = start + n * 1000;
      expect((await guess(t, channel, ip, n)).statusCode, `guess ${n}`).toBe(404);
    }
    now = start + 25_000;
    const before = await stored();
    const refused = await guess(t, channel, ip, 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 1060, message: expect.stringMatching(/unknown chat-channel addresses/) } });
    // The window began with the first 404: 35 s of it are left.
    expect(refused.headers['retry-after']).toBe('35');
    expect((await guess(t, channel, ip, 99)).statusCode).toBe(429);
    expect((await wh(t, 'GET', '/wh/no/such/route', ip)).statusCode).toBe(429);
    expect(await stored()).toEqual(before);
    // The live channel, named with its right random string, is never refused by the guessing limit.
    expect((await wh(t, 'GET', `${channel.path}/status`, ip)).body).toMatch(/^[01]$/);
    expect((await wh(t, 'POST', channel.path, ip, textMessage('real', 'a right request'))).statusCode).toBe(200);

    // Another address is not held back, neither for right requests nor for its own 404s.
    expect((await wh(t, 'POST', channel.path, '203.0.113.11', textMessage('other', 'hello'))).statusCode).toBe(200);
    expect((await wh(t, 'GET', `${channel.path}/status`, '203.0.113.11')).body).toMatch(/^[01]$/);
    expect((await guess(t, channel, '203.0.113.11', 1)).statusCode).toBe(404);

    // Refusals do not extend the window: once the minute is over the address's guesses are answered again.
    now = start + 59_999;
    expect((await guess(t, channel, ip, 2)).statusCode).toBe(429);
    now = start + 60_000;
    expect((await guess(t, channel, ip, 2)).statusCode).toBe(404);
  });

  it('never counts right requests, and forgets 404s older than a minute', async () => {
    const ip = '203.0.113.20';
    const start = now;
    for (let n = 0; n < LIMIT - 1; n++) expect((await guess(t, channel, ip, n)).statusCode).toBe(404);
    for (let n = 0; n < 50; n++) expect((await wh(t, 'GET', `${channel.path}/status`, ip)).statusCode).toBe(200);
    expect((await wh(t, 'POST', channel.path, ip, textMessage('steady', 'many right requests'))).statusCode).toBe(200);
    // A new window: 19 old 404s do not add up with new ones.
    now = start + 61_000;
    for (let n = 0; n < LIMIT - 1; n++) expect((await guess(t, channel, ip, n)).statusCode).toBe(404);
    expect((await wh(t, 'POST', channel.path, ip, textMessage('steady', 'still fine'))).statusCode).toBe(200);
    expect((await guess(t, channel, ip, 1)).statusCode).toBe(404);
    expect((await guess(t, channel, ip, 2)).statusCode).toBe(429);
    expect((await wh(t, 'GET', `${channel.path}/status`, ip)).statusCode).toBe(200);
  });

  it('refuses wrong random strings for one channel id after 20 from any addresses, never its right one', async () => {
    const other = await createChatChannel(t, { name: 'Guessed' });
    const [, , secret, publicId] = other.path.split('/');
    const start = now;
    for (let n = 0; n < LIMIT; n++) {
      now = start + n * 100;
      expect((await wh(t, 'GET', `/wh/${secret.slice(0, -1)}${n % 10}/${publicId}/status`, `203.0.114.${n + 1}`)).statusCode, `guess ${n}`).toBe(404);
    }
    const refused = await wh(t, 'GET', `/wh/wrong/${publicId}/status`, '203.0.114.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/wrong random string/);
    expect((await wh(t, 'GET', `${other.path}/status`, '203.0.114.201')).body).toMatch(/^[01]$/);
    expect((await wh(t, 'POST', other.path, '203.0.114.201', textMessage('guessed', 'still served'))).statusCode).toBe(200);
    now = start + 61_000;
  });

  it("keeps the chat channel's body shape and numeric codes for its other errors", async () => {
    const res = await wh(t, 'POST', channel.path, '203.0.113.30', 'not json');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toEqual(expect.any(Number));
    // Any other path under /wh, whatever the method, is the chat channel's 404 (numeric code), and counts.
    for (const [method, url] of [
      ['GET', '/wh/a/b/c/d'],
      ['PUT', `${channel.path}`],
      ['DELETE', '/wh/x'],
    ] as const) {
      const other = await t.app.inject({ method, url, headers: { 'x-forwarded-for': '203.0.113.31', accept: 'text/html' } });
      expect(other.statusCode, `${method} ${url}`).toBe(404);
      expect(other.json(), `${method} ${url}`).toEqual({ error: { code: 1031, message: expect.any(String) } });
    }
  });
});

describe('chat channel guessing limit shared through Redis', () => {
  it('counts one address across instances of a deployment', async () => {
    const at = Date.now();
    const a = await createTestApp({ env: { REDIS_URL }, clock: () => at, workers: false });
    const b = await createTestApp({ env: { REDIS_URL }, store: a.store, clock: () => at, workers: false });
    try {
      const channel = await createChatChannel(a);
      // An address unique to this run: Redis outlives the test.
      const ip = `198.51.100.${(at % 250) + 1}`;
      const half = LIMIT / 2;
      for (let n = 0; n < half; n++) expect((await guess(a, channel, ip, n)).statusCode).toBe(404);
      for (let n = half; n < LIMIT; n++) expect((await guess(b, channel, ip, n)).statusCode).toBe(404);
      const refused = await wh(a, 'GET', '/wh/guess/again/status', ip);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await wh(b, 'GET', '/wh/guess/again/status', ip)).statusCode).toBe(429);
      expect((await wh(b, 'GET', '/wh/guess/again/status', '198.51.100.0')).statusCode).toBe(404);
      // The right address of the channel is served, to the refused address too.
      expect((await wh(b, 'GET', `${channel.path}/status`, ip)).statusCode).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await a.store.cleanup();
    }
  });
});
