/**
 * Web Push end to end, against a real push service on loopback
 * (test/helpers/pushService.ts: the VAPID JWT verified, the aes128gcm payload
 * decrypted with the subscription's own P-256 key): what each event pushes
 * and to whom, the agent's preferences, chosen status and visible tab
 * deciding, the TTL, Urgency and Topic headers, a payload holding no more
 * than the notification needs; a 410 or 404 deletes the subscription, another
 * 4xx is final, a 503 is retried with backoff, a 429's
 * Retry-After is honoured (capped) and the push then arrives once. Runs on
 * both stores (vitest projects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { registerDevice, startPushService, type TestPushService, type TestSubscription } from '../../test/helpers/pushService.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, sendText, setStatus, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { RETRY_AFTER_CAP_MS } from './deliveryKind.js';
import { TAB_FRESH_MS } from './subscriptions.js';

const PAYLOAD_KEYS = ['body', 'chat_id', 'kind', 'tag', 'title', 'url'];

describe('Web Push', () => {
  let t: TestApp;
  let push: TestPushService;
  let widget: TestWidget;
  let pat: { id: number; token: string };
  let sam: { id: number; token: string };
  let adminDevice: TestSubscription;
  let patDevice: TestSubscription;
  let samDevice: TestSubscription;

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  const register = (token: string) => registerDevice(t, push, token);

  /** Every push_* delivery settled (none pending), after the relay wrote them. */
  async function settled(): Promise<void> {
    await allRelayed(t.app);
    await waitFor(async () => {
      const pending = await t.app.ctx.db.selectFrom('deliveries').select('id').where('kind', '=', 'web_push').where('status', '=', 'pending').execute();
      return pending.length === 0;
    }, 15_000);
  }

  /** What the pushes since `from` brought, per device. */
  function since(from: number) {
    const got = push.received.slice(from);
    return {
      admin: got.filter((r) => r.subscription === adminDevice.id),
      pat: got.filter((r) => r.subscription === patDevice.id),
      sam: got.filter((r) => r.subscription === samDevice.id),
    };
  }

  async function newChat(text: string): Promise<{ chatId: number; token: string }> {
    const s = await startSession(t, widget.widget_id);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Ann Lee' })).statusCode).toBe(200);
    const m = await sendText(t, widget.widget_id, s.visitor_token, text);
    return { chatId: m.chat_id, token: s.visitor_token };
  }

  beforeAll(async () => {
    t = await createTestApp();
    push = await startPushService(async () => (await call('GET', '/push/vapid-public-key', t.adminToken)).json<{ public_key: string }>().public_key);
    pat = await addAgent(t, { email: 'pat@example.com', name: 'Pat' });
    sam = await addAgent(t, { email: 'sam@example.com', name: 'Sam' });
    // Sam works another channel only: the widget's chats are not Sam's to see.
    await createWidget(t, { name: 'Other', agent_ids: [sam.id] });
    widget = await createWidget(t, { name: 'Shop', agent_ids: [pat.id] });
    adminDevice = await register(t.adminToken);
    patDevice = await register(pat.token);
    samDevice = await register(sam.token);
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  it('pushes a new waiting chat to the agents of its channel, encrypted, signed, with TTL, Urgency and Topic', async () => {
    const from = push.received.length;
    const long = `Hello, I need help with order 12345. ${'x'.repeat(300)}`;
    const { chatId } = await newChat(long);
    await settled();
    const got = since(from);
    expect(push.invalid).toEqual([]);
    expect(got.sam).toEqual([]);
    for (const [device] of [got.admin, got.pat]) {
      expect(device).toBeDefined();
      expect(device.status).toBe(201);
      expect(device.ttl).toBe('3600');
      expect(device.urgency).toBe('high');
      expect(device.topic).toBe(`chat-${chatId}`);
      expect(device.claims.aud).toBe(push.origin);
      expect(device.claims.sub).toBe('mailto:parley@parley.test');
      expect(Object.keys(device.payload).sort()).toEqual(PAYLOAD_KEYS);
      expect(device.payload).toMatchObject({ kind: 'new_chat', chat_id: chatId, url: `/chats/${chatId}`, tag: `chat-${chatId}` });
      expect(device.payload.title).toMatch(/^New chat: /);
      const body = device.payload.body as string;
      expect([...body].length).toBeLessThanOrEqual(100);
      expect(long.startsWith(body.replace(/…$/, ''))).toBe(true);
      expect(device.plaintextBytes).toBeLessThan(400);
    }
    expect(got.admin).toHaveLength(1);
    expect(got.pat).toHaveLength(1);
    const row = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'web_push').where('chat_id', '=', chatId).execute();
    expect(row.map((r) => [r.status, r.event_type])).toEqual([
      ['delivered', 'push.new_chat'],
      ['delivered', 'push.new_chat'],
    ]);
  });

  it("pushes a visitor's message to the agent holding the chat only, with its first 100 characters", async () => {
    const { chatId, token } = await newChat('Hi');
    expect((await call('POST', `/chats/${chatId}/accept`, pat.token)).statusCode).toBe(200);
    await settled();
    const from = push.received.length;
    const text = `Are you there? ${'é'.repeat(150)}`;
    await sendText(t, widget.widget_id, token, text);
    await settled();
    const got = since(from);
    expect(got.admin).toEqual([]);
    expect(got.pat).toHaveLength(1);
    const [p] = got.pat;
    expect(p.payload).toMatchObject({ kind: 'message', chat_id: chatId, url: `/chats/${chatId}`, title: 'Ann Lee' });
    expect([...(p.payload.body as string)]).toHaveLength(100);
    expect(p.ttl).toBe(String(24 * 3600));
    expect(p.topic).toBe(`chat-${chatId}`);
  });

  it('follows the preferences: muted, the event switched off, or chose Offline: nothing pushed', async () => {
    const prefs = (payload: object) => call('PUT', '/me/notifications', pat.token, payload);
    let from = push.received.length;
    expect((await prefs({ muted: true })).statusCode).toBe(200);
    await newChat('muted?');
    await settled();
    expect(since(from).pat).toEqual([]);
    expect(since(from).admin).toHaveLength(1);

    await prefs({ muted: false, events: { new_chat: false } });
    from = push.received.length;
    await newChat('new chats off?');
    await settled();
    expect(since(from).pat).toEqual([]);

    await prefs({ events: { new_chat: true } });
    await setStatus(t, 'offline', pat.token);
    from = push.received.length;
    await newChat('offline?');
    await settled();
    expect(since(from).pat).toEqual([]);

    await setStatus(t, 'online', pat.token);
    from = push.received.length;
    await newChat('back');
    await settled();
    expect(since(from).pat).toHaveLength(1);
  });

  it('pushes nothing to an agent whose tab is visible; a hidden or silent tab lets it through', async () => {
    const tab = 'tab-pat-000001';
    expect((await call('PUT', `/me/tabs/${tab}`, pat.token, { visible: true })).statusCode).toBe(204);
    let from = push.received.length;
    await newChat('seen in the tab');
    await settled();
    expect(since(from).pat).toEqual([]);
    expect(since(from).admin).toHaveLength(1);

    // A visible tab that stopped saying so (closed without a word) no longer counts.
    await t.app.ctx.db
      .updateTable('agent_tabs')
      .set({ updated_at: Date.now() - TAB_FRESH_MS - 1000 })
      .where('agent_id', '=', pat.id)
      .execute();
    from = push.received.length;
    await newChat('tab gone silent');
    await settled();
    expect(since(from).pat).toHaveLength(1);

    expect((await call('PUT', `/me/tabs/${tab}`, pat.token, { visible: false })).statusCode).toBe(204);
    from = push.received.length;
    await newChat('tab hidden');
    await settled();
    expect(since(from).pat).toHaveLength(1);
  });

  it('pushes a transfer to the agent who gets the chat, not to the one who made it', async () => {
    const { chatId } = await newChat('transfer me');
    expect((await call('POST', `/chats/${chatId}/accept`, t.adminToken)).statusCode).toBe(200);
    await settled();
    const from = push.received.length;
    const res = await call('POST', `/chats/${chatId}/transfer`, t.adminToken, { agent_id: pat.id });
    expect(res.statusCode, res.body).toBe(200);
    await settled();
    const got = since(from);
    expect(got.admin).toEqual([]);
    expect(got.pat.map((p) => p.payload)).toEqual([
      { kind: 'transfer', chat_id: chatId, url: `/chats/${chatId}`, tag: `chat-${chatId}`, title: 'Chat transferred to you', body: 'Ann Lee' },
    ]);
  });

  it('pushes a callback request and an offline message to the agents of the channel', async () => {
    await call('PUT', '/settings', t.adminToken, { callback: { enabled: true, balance_seconds: 600 } });
    let from = push.received.length;
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    expect(res.json()).toMatchObject({ result: 'ok' });
    const callId = res.json<{ call_id: number }>().call_id;
    await settled();
    let got = since(from);
    expect(got.sam).toEqual([]);
    for (const list of [got.admin, got.pat]) {
      expect(list.map((p) => [p.payload.kind, p.payload.url, p.topic])).toEqual([['callback', `/calls?call=${callId}`, `call-${callId}`]]);
    }

    from = push.received.length;
    const o = await startSession(t, widget.widget_id);
    const offline = await visitorCall(t, widget.widget_id, o.visitor_token, 'offline', {
      name: 'Bo',
      email: 'bo@example.com',
      message: 'Call me tomorrow please',
    });
    expect(offline.json()).toEqual({ result: 'ok' });
    await settled();
    got = since(from);
    expect(got.sam).toEqual([]);
    for (const list of [got.admin, got.pat]) {
      expect(list.map((p) => p.payload)).toEqual([
        expect.objectContaining({ kind: 'offline_message', title: 'Offline message: Bo', body: 'Call me tomorrow please', url: '/offline', chat_id: null }),
      ]);
      expect(list[0].urgency).toBe('normal');
    }
  });

  it('pushes an offer to the agent it is offered to, with the time left as TTL', async () => {
    const res = await call('PUT', '/routing', t.adminToken, { mode: 'round_robin', offer_timeout_seconds: 45 });
    expect(res.statusCode, res.body).toBe(200);
    await setStatus(t, 'online', pat.token);
    await setStatus(t, 'away', t.adminToken);
    try {
      const from = push.received.length;
      const { chatId } = await newChat('route me');
      await settled();
      const offered = since(from).pat.filter((p) => p.payload.kind === 'offered');
      expect(offered).toHaveLength(1);
      expect(offered[0].payload).toMatchObject({ chat_id: chatId, body: 'Accept it within 45 s.' });
      expect(offered[0].ttl).toBe('45');
      expect(offered[0].topic).toBe(`chat-${chatId}`);
    } finally {
      await call('PUT', '/routing', t.adminToken, { mode: 'manual' });
      await setStatus(t, 'online', t.adminToken);
    }
  });

  it('deletes a subscription the push service says is gone (410), and sends it nothing more', async () => {
    const device = await register(pat.token);
    push.answer(device, { status: 410 });
    await newChat('gone?');
    await settled();
    expect(push.pushesFor(device).map((p) => p.status)).toEqual([410]);
    const row = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('url', '=', device.endpoint).executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.last_status_code).toBe(410);
    expect(row.last_error).toMatch(/subscription is gone \(HTTP 410\)/);
    expect(await t.app.ctx.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', device.endpoint).execute()).toEqual([]);
    const list = (await call('GET', '/me/push-subscriptions', pat.token)).json<{ subscriptions: { endpoint: string }[] }>().subscriptions;
    expect(list.map((s) => s.endpoint)).not.toContain(device.endpoint);
    await newChat('gone for good');
    await settled();
    expect(push.pushesFor(device)).toHaveLength(1);
  });

  it('deletes a subscription answered 404 too; a 400 is final and keeps the device; a 503 is retried with backoff', async () => {
    const row = (endpoint: string) => t.app.ctx.db.selectFrom('deliveries').selectAll().where('url', '=', endpoint).executeTakeFirstOrThrow();
    const subscribed = async (endpoint: string) =>
      (await t.app.ctx.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).length === 1;
    const unknown = await register(pat.token);
    const refused = await register(pat.token);
    const down = await register(pat.token);
    push.answer(unknown, { status: 404 });
    push.answer(refused, { status: 400 });
    push.answer(down, { status: 503 });
    const before = Date.now();
    await newChat('answers of every kind');
    await allRelayed(t.app);

    const gone = await waitFor(async () => {
      const r = await row(unknown.endpoint);
      return r.status === 'failed' && r;
    });
    expect(gone.last_error).toMatch(/subscription is gone \(HTTP 404\)/);
    await waitFor(async () => !(await subscribed(unknown.endpoint)));

    const final = await waitFor(async () => {
      const r = await row(refused.endpoint);
      return r.status === 'failed' && r;
    });
    expect(final.attempts).toBe(1);
    expect(final.last_error).toMatch(/refused the notification \(HTTP 400\)/);
    expect(await subscribed(refused.endpoint)).toBe(true);

    const retried = await waitFor(async () => {
      const r = await row(down.endpoint);
      return r.attempts === 1 && r;
    });
    expect(retried.status).toBe('pending');
    expect(retried.last_status_code).toBe(503);
    // The first backoff step: 5 s, give or take its 10 % jitter.
    expect(retried.next_attempt_at).toBeGreaterThanOrEqual(before + 4_500);
    expect(retried.next_attempt_at).toBeLessThan(Date.now() + 5_500);
    await t.app.ctx.db.updateTable('deliveries').set({ next_attempt_at: Date.now() }).where('id', '=', retried.id).execute();
    await waitFor(async () => (await row(down.endpoint)).status === 'delivered');
    expect(push.pushesFor(down).map((p) => p.status)).toEqual([503, 201]);
    expect(push.pushesFor(unknown).map((p) => p.status)).toEqual([404]);
    expect(push.pushesFor(refused).map((p) => p.status)).toEqual([400]);
    for (const device of [refused, down])
      expect((await call('DELETE', '/me/push-subscriptions', pat.token, { endpoint: device.endpoint })).statusCode).toBe(204);
  });

  it('retries a 429 no sooner than its Retry-After (capped), then delivers once', async () => {
    const device = await register(pat.token);
    push.answer(device, { status: 429, headers: { 'retry-after': '120' } }, { status: 429, headers: { 'retry-after': '999999' } });
    const before = Date.now();
    await newChat('busy push service');
    await allRelayed(t.app);
    const row = () => t.app.ctx.db.selectFrom('deliveries').selectAll().where('url', '=', device.endpoint).executeTakeFirstOrThrow();
    const first = await waitFor(async () => {
      const r = await row();
      return r.attempts === 1 && r;
    });
    expect(first.status).toBe('pending');
    expect(first.last_status_code).toBe(429);
    expect(first.next_attempt_at).toBeGreaterThanOrEqual(before + 120_000);
    expect(first.next_attempt_at).toBeLessThan(Date.now() + 125_000);
    // Due now: the second attempt gets a Retry-After of days, waited for 30 minutes at most.
    await t.app.ctx.db.updateTable('deliveries').set({ next_attempt_at: Date.now() }).where('id', '=', first.id).execute();
    const second = await waitFor(async () => {
      const r = await row();
      return r.attempts === 2 && r;
    });
    expect(second.status).toBe('pending');
    expect(second.next_attempt_at).toBeGreaterThanOrEqual(Date.now() + RETRY_AFTER_CAP_MS - 5_000);
    expect(second.next_attempt_at).toBeLessThanOrEqual(Date.now() + RETRY_AFTER_CAP_MS);
    await t.app.ctx.db.updateTable('deliveries').set({ next_attempt_at: Date.now() }).where('id', '=', first.id).execute();
    const third = await waitFor(async () => {
      const r = await row();
      return r.status === 'delivered' && r;
    });
    expect(third.attempts).toBe(3);
    expect(push.pushesFor(device).map((p) => p.status)).toEqual([429, 429, 201]);
    expect(push.invalid).toEqual([]);
  });
});
