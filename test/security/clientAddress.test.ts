/**
 * Per-address limits hold against a client that makes up its address:
 * X-Forwarded-For is believed only when the connection comes from a proxy
 * listed in TRUST_PROXY (addresses, CIDR ranges), and from none by default —
 * not from loopback or a private network either, so a client on an intranet
 * or VPN cannot rotate the header to escape the chat channel's guessing limit
 * or the failed-sign-in limit. A listed proxy's header still tells clients apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESS_LIMIT } from '../../server/routes/chatChannel/chatChannel.js';
import { createChatChannel, textMessage, type ChatChannel } from '../helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../helpers/testApp.js';

function guesser(t: () => TestApp, channel: () => ChatChannel) {
  let n = 0;
  return (remoteAddress: string, forwardedFor: string) =>
    t().app.inject({
      method: 'GET',
      // A fresh unknown id each time: only the per-address count is at stake here (the per-id one: chatChannelGuessing).
      url: `/wh/wrong-secret-${n}/${channel().public_id}-${n++}/status`,
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
}

describe('client addresses without TRUST_PROXY (the default)', () => {
  let t: TestApp;
  let channel: ChatChannel;
  const guess = guesser(
    () => t,
    () => channel,
  );

  beforeAll(async () => {
    t = await createTestApp({ workers: false, env: { TRUST_PROXY: '0' } });
    channel = await createChatChannel(t);
  });
  afterAll(() => t.close());

  it.each(['203.0.113.200', '127.0.0.1', '10.0.0.5', '192.168.1.2', '172.20.0.3', '::1', 'fd00::7', '::ffff:10.0.0.9'])(
    'does not let a client on %s dodge the guessing limit by rotating X-Forwarded-For',
    async (from) => {
      for (let i = 0; i < GUESS_LIMIT.capacity; i++) expect((await guess(from, `198.51.${i}.1`)).statusCode).toBe(404);
      expect((await guess(from, '198.51.99.1')).statusCode).toBe(429);
      expect((await guess(from, '198.51.100.1')).statusCode).toBe(429);
      // The live channel with its right random string is never refused by the guessing limit (#32 item 3).
      const status = await t.app.inject({ method: 'GET', url: `${channel.path}/status`, remoteAddress: from, headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(status.statusCode).toBe(200);
    },
  );

  // A hundred failed sign-ins (each a scrypt hash): generous time on a loaded machine.
  it('does not let a client on the private network dodge the per-address sign-in lock', { timeout: 180_000 }, async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '10.20.0.1',
        headers: { 'x-forwarded-for': `198.51.${i}.1` },
        payload: { email: `nobody${i}@example.com`, password: 'wrong' },
      });
      expect(res.statusCode).toBe(401);
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '10.20.0.1',
      headers: { 'x-forwarded-for': '198.51.200.1' },
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(locked.statusCode).toBe(429);
  });
});

describe('client addresses with TRUST_PROXY=10.0.0.5,192.168.0.0/16,::1', () => {
  let t: TestApp;
  let channel: ChatChannel;
  const guess = guesser(
    () => t,
    () => channel,
  );

  beforeAll(async () => {
    t = await createTestApp({ workers: false, env: { TRUST_PROXY: '10.0.0.5,192.168.0.0/16,::1' } });
    channel = await createChatChannel(t);
  });
  afterAll(() => t.close());

  it.each(['10.0.0.5', '192.168.1.2', '192.168.200.9', '::1', '::ffff:10.0.0.5'])("believes a listed proxy's X-Forwarded-For (%s)", async (proxy) => {
    for (let i = 0; i < GUESS_LIMIT.capacity; i++) expect((await guess(proxy, `198.51.100.${i + 10}`)).statusCode, proxy).toBe(404);
    // Another client behind the same proxy has its own count: its guess is answered, not refused.
    expect((await guess(proxy, '198.51.100.250')).statusCode, proxy).toBe(404);
    const other = await t.app.inject({
      method: 'POST',
      url: channel.path,
      remoteAddress: proxy,
      headers: { 'x-forwarded-for': '198.51.100.250' },
      payload: JSON.stringify(textMessage(`behind-proxy-${proxy}`, 'hi')),
    });
    expect(other.statusCode, proxy).toBe(200);
  });

  it.each(['10.0.0.6', '172.20.0.3', '127.0.0.1', '203.0.113.200'])('does not believe the header from an address not listed (%s)', async (from) => {
    for (let i = 0; i < GUESS_LIMIT.capacity; i++) expect((await guess(from, `198.51.${i}.7`)).statusCode).toBe(404);
    expect((await guess(from, '198.51.99.7')).statusCode).toBe(429);
  });
});
