/**
 * Per-address limits hold against a client that makes up its address:
 * X-Forwarded-For is believed only when the connection comes from a proxy on
 * this machine or a private network (loopback, link-local, unique-local). A
 * client on the internet that rotates the header is still one address — for
 * the chat channel's guessing limit and for failed sign-ins alike — while a
 * local proxy's header still tells clients apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESS_LIMIT } from '../../server/routes/wh/wh.js';
import { createChatApiChannel, textMessage, type ChatApiChannel } from '../helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../helpers/testApp.js';

describe('client addresses behind and without a proxy', () => {
  let t: TestApp;
  let channel: ChatApiChannel;
  let n = 0;
  const guess = (remoteAddress: string, forwardedFor: string) =>
    t.app.inject({ method: 'GET', url: `/wh/wrong-secret-${n++}/${channel.public_id}/status`, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    channel = await createChatApiChannel(t);
  });
  afterAll(() => t.close());

  it('does not let a public client dodge the guessing limit by rotating X-Forwarded-For', async () => {
    for (let i = 0; i < GUESS_LIMIT.capacity; i++) expect((await guess('203.0.113.200', `10.9.${i}.1`)).statusCode).toBe(404);
    const refused = await guess('203.0.113.200', '10.9.99.1');
    expect(refused.statusCode).toBe(429);
    const status = await t.app.inject({
      method: 'GET',
      url: `${channel.path}/status`,
      remoteAddress: '203.0.113.200',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(status.statusCode).toBe(429);
  });

  it('believes X-Forwarded-For from a proxy on loopback or a private network', async () => {
    for (const proxy of ['127.0.0.1', '10.0.0.5', '192.168.1.2', '172.20.0.3', '::1', 'fd00::7']) {
      for (let i = 0; i < GUESS_LIMIT.capacity; i++) expect((await guess(proxy, `198.51.100.${i + 10}`)).statusCode, proxy).toBe(404);
      const other = await t.app.inject({
        method: 'POST',
        url: channel.path,
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': '198.51.100.250' },
        payload: JSON.stringify(textMessage('behind-proxy', 'hi')),
      });
      expect(other.statusCode, proxy).toBe(200);
    }
  });

  it('does not let a public client dodge the per-address sign-in lock', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '203.0.113.201',
        headers: { 'x-forwarded-for': `10.8.${i}.1` },
        payload: { email: `nobody${i}@example.com`, password: 'wrong' },
      });
      expect(res.statusCode).toBe(401);
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '203.0.113.201',
      headers: { 'x-forwarded-for': '10.8.200.1' },
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(locked.statusCode).toBe(429);
  });
});
