/**
 * Tenant isolation: a second account's admin and agent get 404 (or an empty
 * list) for every id of the first account — agents, departments, channels,
 * settings, chats and every chat action, offline messages, calls and call
 * status, deliveries and redelivery — and change nothing; a visitor token,
 * channel secret or socket of one account's widget or chat channel opens
 * nothing of the other's; the other account's streams and visitor sockets
 * receive none of the first account's frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../helpers/chatChannel.js';
import { listen, StreamClient, streamUrl } from '../helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, visitorSocketUrl, type TestWidget } from '../helpers/widget.js';
import { otherAccount, snapshotTables, type OtherAccount } from './helpers.js';
import { buildWorld, VISITOR_NAME, type World } from './world.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Probe {
  method: Method;
  url: string;
  body?: unknown;
  /** Admin-only: an agent of the other account may get 403 instead of 404. */
  admin?: boolean;
}

/** Every call that names an id of account A. */
function probesOf(w: World): Probe[] {
  const chat = (id: number): Probe[] => [
    { method: 'GET', url: `/api/v1/chats/${id}` },
    { method: 'POST', url: `/api/v1/chats/${id}/accept` },
    { method: 'POST', url: `/api/v1/chats/${id}/messages`, body: { type: 'text', text: 'hijack' } },
    { method: 'POST', url: `/api/v1/chats/${id}/messages`, body: { type: 'text', text: 'note', internal: true } },
    { method: 'POST', url: `/api/v1/chats/${id}/typing`, body: { typing: true } },
    { method: 'POST', url: `/api/v1/chats/${id}/assign` },
    { method: 'POST', url: `/api/v1/chats/${id}/finish`, body: { blacklist: true } },
    { method: 'POST', url: `/api/v1/chats/${id}/transfer`, body: { agent_id: w.agent.id } },
    { method: 'POST', url: `/api/v1/chats/${id}/read` },
  ];
  return [
    { method: 'GET', url: `/api/v1/agents/${w.agent.id}` },
    { method: 'GET', url: `/api/v1/agents/${w.adminId}` },
    { method: 'PATCH', url: `/api/v1/agents/${w.agent.id}`, body: { name: 'Hijacked', role: 'admin', active: false, password: 'new-password-1' }, admin: true },
    { method: 'PATCH', url: `/api/v1/agents/${w.adminId}`, body: { password: 'new-password-1' }, admin: true },
    { method: 'PATCH', url: `/api/v1/departments/${w.departmentId}`, body: { name: 'Hijacked' }, admin: true },
    { method: 'DELETE', url: `/api/v1/departments/${w.departmentId}`, admin: true },
    ...[w.chatApi.id, w.widget.id].flatMap((id): Probe[] => [
      { method: 'GET', url: `/api/v1/channels/${id}`, admin: true },
      { method: 'PATCH', url: `/api/v1/channels/${id}`, body: { name: 'Hijacked' }, admin: true },
      { method: 'DELETE', url: `/api/v1/channels/${id}`, admin: true },
    ]),
    { method: 'PATCH', url: `/api/v1/channels/${w.chatApi.id}`, body: { rotate_secret: true }, admin: true },
    ...chat(w.chatApiChatId),
    ...chat(w.widgetChatId),
    { method: 'GET', url: `/api/v1/calls/${w.callId}` },
    ...['agent_connected', 'client_connected', 'end', 'error'].map((status): Probe => ({
      method: 'POST',
      url: `/api/v1/calls/${w.callId}/status`,
      body: { status },
    })),
    { method: 'POST', url: `/api/v1/deliveries/${w.deliveryId}/redeliver`, admin: true },
  ];
}

/** Lists of the other account, with every filter: none may show a row of account A. */
const LISTS = [
  '/api/v1/agents',
  '/api/v1/departments',
  '/api/v1/channels',
  '/api/v1/chats',
  '/api/v1/chats?status=pending',
  '/api/v1/chats?status=active',
  '/api/v1/chats?status=finished',
  `/api/v1/chats?q=${encodeURIComponent('Secretname')}`,
  '/api/v1/chats?q=help',
  '/api/v1/offline-messages',
  '/api/v1/calls',
  '/api/v1/calls?status=start',
  '/api/v1/deliveries',
  '/api/v1/deliveries?kind=chat_channel',
];

describe('tenant isolation over the API', () => {
  let t: TestApp;
  let w: World;
  let b: OtherAccount;
  let bWidget: TestWidget;
  let bChannel: ChatChannel;

  const call = (method: Method, url: string, token: string, body?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(body === undefined ? {} : { payload: body as object }) });

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    w = await buildWorld(t);
    b = await otherAccount(t);
    bWidget = await createWidget(t, { name: 'B site' }, b.adminToken);
    bChannel = await createChatChannel({ ...t, adminToken: b.adminToken }, { name: 'B app' });
  });
  afterAll(() => t.close());

  it('the first account really has every resource (the probes below aim at real ids)', async () => {
    for (const p of probesOf(w).filter((p) => p.method === 'GET')) expect((await call('GET', p.url, t.adminToken)).statusCode, p.url).toBe(200);
    for (const url of LISTS) expect((await call('GET', url, t.adminToken)).json().length, url).toBeGreaterThan(0);
  });

  for (const who of ['admin', 'agent'] as const) {
    it(`the other account's ${who} gets 404 for every id of the first account and changes nothing`, async () => {
      const token = who === 'admin' ? b.adminToken : b.agentToken;
      const before = await snapshotTables(t);
      for (const p of probesOf(w)) {
        const res = await call(p.method, p.url, token, p.body);
        const allowed = who === 'agent' && p.admin ? [403, 404] : [404];
        expect(allowed, `${who} ${p.method} ${p.url} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        expect(res.body).not.toContain(VISITOR_NAME);
      }
      expect(await snapshotTables(t)).toEqual(before);
    });

    it(`the other account's ${who} lists none of the first account's rows`, async () => {
      const token = who === 'admin' ? b.adminToken : b.agentToken;
      const mine = new Set([b.adminId, b.agentId]);
      for (const url of LISTS) {
        const res = await call('GET', url, token);
        if (who === 'agent' && (url.startsWith('/api/v1/channels') || url.startsWith('/api/v1/deliveries'))) {
          expect(res.statusCode, url).toBe(403);
          continue;
        }
        expect(res.statusCode, url).toBe(200);
        const rows = res.json<Array<{ id: number }>>();
        if (url === '/api/v1/agents') expect(new Set(rows.map((r) => r.id))).toEqual(mine);
        else if (url === '/api/v1/channels') expect(rows.map((r) => r.id).sort()).toEqual([bWidget.id, bChannel.id].sort());
        else expect(rows, url).toEqual([]);
      }
    });
  }

  it('keeps settings apart: the other admin reads and changes only its own', async () => {
    await call('PUT', '/api/v1/settings', t.adminToken, { event_webhook_url: 'https://a.example.com/events', safe_url: 'https://a.example.com' });
    const mine = (await call('GET', '/api/v1/settings', t.adminToken)).json();
    const theirs = (await call('GET', '/api/v1/settings', b.adminToken)).json();
    expect(theirs.event_webhook_url).toBeNull();
    expect(theirs.webhook_secret).not.toBe(mine.webhook_secret);
    expect(theirs.callback.enabled).toBe(false);
    const res = await call('PUT', '/api/v1/settings', b.adminToken, { event_webhook_url: 'https://b.example.com/events', callback: { enabled: false } });
    expect(res.statusCode).toBe(200);
    expect((await call('POST', '/api/v1/settings/webhook-secret/rotate', b.adminToken)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/settings', t.adminToken)).json()).toEqual(mine);
  });

  it("refuses the other account's agents in channel assignments and transfers", async () => {
    const before = await snapshotTables(t);
    const created = await call('POST', '/api/v1/channels', b.adminToken, { type: 'widget', name: 'X', agent_ids: [w.agent.id] });
    expect(created.statusCode).toBe(400);
    const patched = await call('PATCH', `/api/v1/channels/${bWidget.id}`, b.adminToken, { agent_ids: [w.agent.id] });
    expect(patched.statusCode).toBe(400);
    expect(await snapshotTables(t)).toEqual(before);
  });

  it("opens nothing of one widget with another account's visitor token, and no chat channel with another's secret", async () => {
    const bSession = await startSession(t, bWidget.widget_id);
    const before = await snapshotTables(t);
    const paths: Array<[string, unknown, 'GET' | 'POST']> = [
      ['messages', { type: 'text', text: 'hi' }, 'POST'],
      ['typing', { typing: true }, 'POST'],
      ['contact', { name: 'X', email: 'x@example.com' }, 'POST'],
      ['custom-data', { fields: [{ key: 'k', content: 'v' }] }, 'POST'],
      ['user-token', { token: 'u-1' }, 'POST'],
      ['page', { url: 'https://x.example.com/' }, 'POST'],
      ['attributes', { attributes: { a: 1 } }, 'POST'],
      ['offline', { message: 'hi' }, 'POST'],
      ['rate', { rate: 'positive' }, 'POST'],
      ['callback', undefined, 'GET'],
      ['callback', { phone: '+15550100111' }, 'POST'],
    ];
    for (const [path, body, method] of paths) {
      // A's visitor at B's widget, and B's visitor at A's widget.
      for (const [widgetId, token] of [
        [bWidget.widget_id, w.visitorToken],
        [w.widget.widget_id, bSession.visitor_token],
      ]) {
        const res = await visitorCall(t, widgetId, token, path, body, { method });
        expect(res.statusCode, `${method} ${path}`).toBe(401);
      }
    }
    const upload = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${bWidget.widget_id}/uploads`,
      headers: { ...bearer(w.visitorToken), 'content-type': 'text/plain' },
      payload: Buffer.from('x'),
    });
    expect(upload.statusCode).toBe(401);
    // A session with A's token at B's widget is a new visitor of B, never A's visitor.
    const resumed = await startSession(t, bWidget.widget_id, { token: w.visitorToken });
    expect(resumed.visitor_token).not.toBe(w.visitorToken);
    expect(resumed.chat).toBeNull();
    const afterSession = await snapshotTables(t);
    for (const table of Object.keys(before)) if (table !== 'visitors' && table !== 'accounts') expect(afterSession[table], table).toEqual(before[table]);

    const [, , aSecret, aPublic] = w.chatApi.path.split('/');
    const [, , bSecret, bPublic] = bChannel.path.split('/');
    for (const path of [`/wh/${bSecret}/${aPublic}`, `/wh/${aSecret}/${bPublic}`]) {
      expect((await t.app.inject({ method: 'GET', url: `${path}/status` })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: path, payload: JSON.stringify(textMessage('x', 'hi')) })).statusCode).toBe(404);
    }
  });
});

describe('tenant isolation of live frames', () => {
  let t: TestApp;
  let w: World;
  let b: OtherAccount;
  let base: string;
  const sockets: StreamClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    b = await otherAccount(t, 'frames');
  });
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => undefined);
    await t.close();
  });

  it("sends the other account's streams and visitor sockets none of the first account's frames", async () => {
    const bWidget = await createWidget(t, { name: 'B site' }, b.adminToken);
    const bVisitor = await startSession(t, bWidget.widget_id);
    const mineAdmin = await StreamClient.ready(streamUrl(base, t.adminToken));
    const theirAdmin = await StreamClient.ready(streamUrl(base, b.adminToken));
    const theirAgent = await StreamClient.ready(streamUrl(base, b.agentToken));
    const theirVisitor = await StreamClient.ready(visitorSocketUrl(base, bWidget.widget_id, bVisitor.visitor_token));
    sockets.push(mineAdmin, theirAdmin, theirAgent, theirVisitor);

    // Everything account A does: chats on both channels, replies, typing, accept, finish, offline message, call statuses, agent status.
    w = await buildWorld(t, 'frames');
    await t.app.inject({ method: 'POST', url: `/api/v1/chats/${w.widgetChatId}/accept`, headers: bearer(t.adminToken) });
    await t.app.inject({ method: 'POST', url: `/api/v1/chats/${w.widgetChatId}/typing`, headers: bearer(t.adminToken), payload: { typing: true } });
    await visitorCall(t, w.widget.widget_id, w.visitorToken, 'typing', { typing: true });
    await sendText(t, w.widget.widget_id, w.visitorToken, 'second message');
    await t.app.inject({ method: 'POST', url: `/api/v1/calls/${w.callId}/status`, headers: bearer(t.adminToken), payload: { status: 'end' } });
    await t.app.inject({ method: 'POST', url: `/api/v1/chats/${w.chatApiChatId}/finish`, headers: bearer(t.adminToken), payload: {} });
    await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(t.adminToken), payload: { status: 'online' } });
    await postInbound(t, w.chatApi, textMessage('cust-frames', 'back again'));

    const kinds = ['chat.created', 'chat.updated', 'message.created', 'typing', 'offline_message.created', 'call.updated', 'agent.updated'];
    await mineAdmin.until((c) => kinds.every((k) => c.events().some((f) => f.type === k)), 10_000);
    await mineAdmin.until((c) => c.events().some((f) => f.type === 'message.created' && JSON.stringify(f.data).includes('back again')), 10_000);
    // One more event of account B itself, committed last: once B sees it, B has been sent everything before it.
    const marker = await visitorCall(t, bWidget.widget_id, bVisitor.visitor_token, 'messages', { type: 'text', text: 'marker of B' });
    expect(marker.statusCode).toBe(201);
    await theirAdmin.until((c) => c.events().some((f) => JSON.stringify(f.data).includes('marker of B')), 10_000);
    await theirVisitor.until((c) => c.events().some((f) => JSON.stringify(f.data).includes('marker of B')), 10_000);
    await waitFor(() => theirAgent.events().some((f) => JSON.stringify(f.data).includes('marker of B')), 10_000);

    for (const client of [theirAdmin, theirAgent, theirVisitor]) {
      const text = JSON.stringify(client.events());
      for (const secret of [
        VISITOR_NAME,
        'I need help',
        'How can I help?',
        'Hello from the site',
        'Call me back later',
        'second message',
        'back again',
        '5550100199',
      ]) {
        expect(text).not.toContain(secret);
      }
      const chatIds = new Set(
        client
          .events()
          .map((f) => f.chat_id ?? (f.data.message as { chat_id?: number } | undefined)?.chat_id)
          .filter((id) => id !== undefined),
      );
      expect(chatIds.has(w.chatApiChatId)).toBe(false);
      expect(chatIds.has(w.widgetChatId)).toBe(false);
      expect(client.closeInfo).toBeNull();
    }
    // A's visitor token opens no socket of B's widget.
    const wrong = await StreamClient.open(visitorSocketUrl(base, bWidget.widget_id, w.visitorToken));
    expect((await wrong.waitClosed()).code).toBe(4401);
  });
});
