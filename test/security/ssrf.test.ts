/**
 * SSRF with OUTBOUND_ALLOW_PRIVATE off: a channel's webhook_url and the
 * account's event_webhook_url are refused at save time when their host is
 * visibly private (loopback names, IPv6 and IPv4-mapped forms, decimal, octal
 * and hex IPv4), and at send time when a name only resolves to a private
 * address (names of /etc/hosts such as `vm` or `ip6-localhost`) or a private
 * URL was stored while private targets were allowed — the receiver on
 * loopback never sees a request, and the delivery says why. (A redirect from a
 * public target to a private one: ssrfRedirect.test.ts.)
 */
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../server/webhooks/ssrf.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor } from '../helpers/chatChannel.js';
import { bearer, createTestApp, freshStore, type TestApp } from '../helpers/testApp.js';
import { tableRows } from './helpers.js';

const PRIVATE_LITERALS = [
  'http://localhost/hook',
  'http://LOCALHOST./hook',
  'http://api.localhost:8080/hook',
  'http://127.0.0.1/hook',
  'http://127.1/hook',
  'http://0/hook',
  'http://0.0.0.0:80/hook',
  'http://2130706433/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.0.0.1/hook',
  'http://0x7f000001/hook',
  'http://017700000001/hook',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[0:0:0:0:0:ffff:7f00:1]/hook',
  'http://[::ffff:7f00:1]:9000/hook',
  'http://[::127.0.0.1]/hook',
  'http://[fe80::1]/hook',
  'http://[fd00::1]/hook',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data',
  'http://169.254.169.254/latest/meta-data',
  'http://10.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://192.168.0.1/hook',
  'http://100.64.0.1/hook',
  'https://[64:ff9b::7f00:1]/hook',
];

/** Names this machine resolves (through /etc/hosts) to a private address, other than `localhost` (refused by name at save time). */
function privateHostNames(): string[] {
  let text: string;
  try {
    text = fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || !net.isIP(address) || classifyAddress(address) === null) continue;
    for (const name of aliases) if (/^[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(name) && !/(^|\.)localhost$/i.test(name)) names.add(name.toLowerCase());
  }
  return [...names].slice(0, 4);
}

describe('SSRF: private targets refused at save time', () => {
  let t: TestApp;
  const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload });
  const stored = async () => [await tableRows(t, 'channels'), await tableRows(t, 'settings')];

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' }, workers: false });
  });
  afterAll(() => t.close());

  it.each(PRIVATE_LITERALS)('refuses %s as webhook_url (create and change) and event_webhook_url', async (url) => {
    const channel = await createChatChannel(t, { webhook_url: 'https://hooks.example.com/in' });
    const before = await stored();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: bearer(t.adminToken),
      payload: { type: 'chat_api', name: 'X', webhook_url: url },
    });
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${channel.id}`,
      headers: bearer(t.adminToken),
      payload: { webhook_url: url },
    });
    const settings = await put({ event_webhook_url: url });
    for (const res of [created, changed, settings]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toEqual({ code: 'outbound_url_refused', message: expect.stringMatching(/private|loopback|OUTBOUND_ALLOW_PRIVATE/) });
    }
    expect(await stored()).toEqual(before);
  });

  it('accepts public hosts and names it cannot judge before sending', async () => {
    expect((await put({ event_webhook_url: 'https://events.example.com/in' })).statusCode).toBe(200);
    expect((await put({ event_webhook_url: 'http://[2606:4700:4700::1111]/in' })).statusCode).toBe(200);
    for (const name of privateHostNames()) expect((await put({ event_webhook_url: `http://${name}/in` })).statusCode, name).toBe(200);
  });
});

describe('SSRF: private targets refused at send time', () => {
  const names = privateHostNames();
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let port: string;

  beforeAll(async () => {
    receiver = await startCustomerEndpoint();
    port = new URL(receiver.url).port;
  });
  afterAll(() => receiver.close());

  /** Agent reply on a chat of a channel whose webhook_url is `url`: the message's delivery. */
  async function replyThrough(t: TestApp, channelPath: string, senderId: string) {
    await postInbound(t, { path: channelPath } as Parameters<typeof postInbound>[1], textMessage(senderId, 'hello'));
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const chat = await t.app.ctx.db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat.id}/messages`,
      headers: bearer(t.adminToken),
      payload: { type: 'text', text: 'reply' },
    });
    expect(sent.statusCode).toBe(201);
    const messageId = sent.json().id as number;
    return waitFor(async () => {
      const detail = (await t.app.inject({ method: 'GET', url: `/api/v1/chats/${chat.id}`, headers: bearer(t.adminToken) })).json();
      const message = detail.messages.find((m: { id: number }) => m.id === messageId);
      return message?.delivery?.status === 'failed' ? message.delivery : null;
    });
  }

  it.skipIf(names.length === 0)('refuses names that resolve to private addresses, for chat-channel replies and event webhooks', async () => {
    const t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
    try {
      for (const name of names) {
        const channel = await createChatChannel(t, { webhook_url: `http://${name}:${port}/hook` });
        const delivery = await replyThrough(t, channel.path, `visitor-${name}`);
        expect(delivery.error).toMatch(new RegExp(`${name} resolves to .*(loopback|private)`));
      }
      const settings = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings',
        headers: bearer(t.adminToken),
        payload: { event_webhook_url: `http://${names[0]}:${port}/events` },
      });
      expect(settings.statusCode).toBe(200);
      const channel = await createChatChannel(t, { webhook_url: 'https://hooks.example.com/x' });
      await postInbound(t, channel, textMessage('event-visitor', 'makes events'));
      const [chat] = (await t.app.inject({ method: 'GET', url: '/api/v1/chats?status=pending', headers: bearer(t.adminToken) })).json<Array<{ id: number }>>();
      // Reply (accept) sends chat_accepted.
      expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chat.id}/accept`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
      const row = await waitFor(() =>
        t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'event_webhook').where('status', '=', 'failed').executeTakeFirst(),
      );
      expect(row.last_error).toMatch(/resolves to .*(loopback|private)/);
      expect(row.attempts).toBe(1);
      expect(receiver.requests).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('refuses at send time a private URL stored while private targets were allowed', async () => {
    const store = freshStore();
    const allowed = await createTestApp({ store, env: { OUTBOUND_ALLOW_PRIVATE: '1' }, workers: false });
    const channel = await createChatChannel(allowed, { webhook_url: `http://127.0.0.1:${port}/hook` });
    await allowed.close();
    const t = await createTestApp({ store, env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
    try {
      const delivery = await replyThrough(t, channel.path, 'stored-earlier');
      expect(delivery.error).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(receiver.requests).toEqual([]);
    } finally {
      await t.close();
      await store.cleanup();
    }
  });
});
