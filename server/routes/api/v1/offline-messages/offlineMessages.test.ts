/**
 * Offline messages end to end: the widget's offline form stores the message
 * and records offline_message.created (agents' streams, the offline_message
 * webhook); GET /api/v1/offline-messages lists them newest first, paged,
 * only the caller's account and channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { allRelayed, listen, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall, type TestWidget } from '../../../../../test/helpers/widget.js';

describe('offline messages', () => {
  let t: TestApp;
  let base: string;
  let widget: TestWidget;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  const list = (token: string, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/offline-messages${query}`, headers: bearer(token) });

  it('validates the form: message required, e-mail format', async () => {
    const s = await startSession(t, widget.widget_id);
    const empty = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Bo', message: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/message is required/);
    const email = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'hi', email: 'bo@' });
    expect(email.statusCode).toBe(400);
    expect(email.json().error.message).toMatch(/e-mail/);
    expect((await list(t.adminToken)).json()).toEqual([]);
  });

  it('stores the message, records offline_message.created for agents and the webhook, and lists it', async () => {
    await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { event_webhook_url: 'http://127.0.0.1:9/events' } });
    const agentSocket = await StreamClient.ready(streamUrl(base, t.adminToken));
    const s = await startSession(t, widget.widget_id);
    const body = { name: 'Bo', email: 'bo@example.com', phone: '+15550100', description: 'Order 7', message: 'Call me back' };
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', body);
    expect(res.json()).toEqual({ result: 'ok' });

    const listed = (await list(t.adminToken)).json();
    expect(listed).toEqual([
      {
        id: expect.any(Number),
        channel_id: widget.id,
        visitor_id: expect.any(Number),
        ...body,
        created_at: expect.any(Number),
        handled_at: null,
        handled_by: null,
      },
    ]);
    await agentSocket.until((c) => c.events().some((f) => f.type === 'offline_message.created'));
    expect(agentSocket.events().find((f) => f.type === 'offline_message.created')?.data).toEqual({ offline_message: listed[0] });
    await agentSocket.close();

    const event = await t.app.ctx.db.selectFrom('events').selectAll().where('type', '=', 'offline_message.created').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ channel_id: widget.id, chat_id: null });
    await allRelayed(t.app);
    const delivery = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('event_type', '=', 'offline_message').executeTakeFirstOrThrow();
    expect(JSON.parse(delivery.body)).toMatchObject({
      event_name: 'offline_message',
      widget_id: widget.widget_id,
      offline_message_id: String(listed[0].id),
      message: 'Call me back',
    });
    await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { event_webhook_url: null } });
  });

  it('pages newest first with limit and before', async () => {
    const s = await startSession(t, widget.widget_id);
    for (const message of ['a', 'b', 'c']) await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message });
    const page1 = (await list(t.adminToken, '?limit=2')).json();
    expect(page1.map((m: { message: string }) => m.message)).toEqual(['c', 'b']);
    const page2 = (await list(t.adminToken, `?limit=2&before=${page1[1].id}`)).json();
    expect(page2.map((m: { message: string }) => m.message)).toEqual(['a', 'Call me back']);
    expect((await list(t.adminToken, '?limit=0')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/offline-messages' })).statusCode).toBe(401);
  });

  it("shows an agent its channels' messages only, and nothing of another account", async () => {
    const agent = await addAgent(t, { email: 'offline-agent@example.com' });
    const adminId = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json().id as number;
    const theirs = await createWidget(t, { name: 'Not yours', agent_ids: [adminId] });
    const s = await startSession(t, theirs.widget_id);
    await visitorCall(t, theirs.widget_id, s.visitor_token, 'offline', { message: 'for the admin only' });
    const mine = (await list(agent.token)).json().map((m: { message: string }) => m.message);
    expect(mine).not.toContain('for the admin only');
    expect(mine).toContain('Call me back'); // a channel with no agents belongs to every agent
    const other = await createOtherAccount(t);
    expect((await list(other.token)).json()).toEqual([]);
  });

  it('keeps what the visitor typed as its own contact: the next session shows it back (no contact prompt again)', async () => {
    const s = await startSession(t, widget.widget_id);
    expect(s.visitor).toMatchObject({ email: null });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Olga', email: 'olga@example.com', message: 'hello?' });
    const again = await startSession(t, widget.widget_id, { token: s.visitor_token });
    expect(again.visitor).toMatchObject({ client_name: 'Olga', email: 'olga@example.com' });
  });

  describe('handled', () => {
    const patch = (id: number | string, payload: unknown, token = t.adminToken) =>
      t.app.inject({ method: 'PATCH', url: `/api/v1/offline-messages/${id}`, headers: bearer(token), payload: payload as Record<string, unknown> });
    const messagesOf = async (query: string, token = t.adminToken) => (await list(token, query)).json().map((m: { message: string }) => m.message);

    it("tells the other agents' streams live: offline_message.updated with the message as it is now, once per change", async () => {
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'seen live' });
      const target = (await list(t.adminToken)).json<Array<{ id: number; message: string }>>().find((m) => m.message === 'seen live')!;
      await allRelayed(t.app);
      const deliveries = async () => (await t.app.ctx.db.selectFrom('deliveries').select('id').execute()).length;
      const deliveriesBefore = await deliveries();
      const socket = await StreamClient.ready(streamUrl(base, t.adminToken));
      const updates = () => socket.events().filter((f) => f.type === 'offline_message.updated');
      const handled = (await patch(target.id, { handled: true })).json();
      await socket.until(() => updates().length === 1);
      expect(updates()[0].data).toEqual({ offline_message: handled });
      // Marked handled again: nothing changed, nothing told.
      await patch(target.id, { handled: true });
      const undone = (await patch(target.id, { handled: false })).json();
      await socket.until(() => updates().length === 2);
      expect(updates().map((f) => (f.data as { offline_message: { handled_at: number | null } }).offline_message.handled_at)).toEqual([
        handled.handled_at,
        null,
      ]);
      expect(updates()[1].data).toEqual({ offline_message: undone });
      await socket.close();
      // Not a customer webhook (the spec's events have no such one): no delivery is made of it.
      await allRelayed(t.app);
      expect(await deliveries()).toBe(deliveriesBefore);
    });

    it('marks a message handled (when, by whom), filters by it, and marks it not handled again', async () => {
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'handle me' });
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'leave me' });
      const all = (await list(t.adminToken)).json<Array<{ id: number; message: string }>>();
      const target = all.find((m) => m.message === 'handle me')!;
      const adminId = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json().id as number;

      const before = Date.now();
      const res = await patch(target.id, { handled: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: target.id, message: 'handle me', handled_by: adminId });
      expect(res.json().handled_at).toBeGreaterThanOrEqual(before - 1000);
      // Handled again: the first mark stays.
      expect((await patch(target.id, { handled: true })).json().handled_at).toBe(res.json().handled_at);

      expect(await messagesOf('?handled=true')).toEqual(['handle me']);
      const open = await messagesOf('?handled=false');
      expect(open).toContain('leave me');
      expect(open).not.toContain('handle me');
      expect((await messagesOf('')).length).toBe(all.length);
      expect(await messagesOf('?handled=true&limit=1')).toEqual(['handle me']);

      const undone = await patch(target.id, { handled: false });
      expect(undone.json()).toMatchObject({ handled_at: null, handled_by: null });
      expect(await messagesOf('?handled=true')).toEqual([]);
    });

    it('refuses bad input with a clear 4xx and changes nothing', async () => {
      const [first] = (await list(t.adminToken)).json<Array<{ id: number; handled_at: number | null }>>();
      for (const body of [{}, { handled: 'yes' }, { handled: null }, { handled: true, extra: 1 }]) {
        const res = await patch(first.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBeTruthy();
      }
      expect((await patch('abc', { handled: true })).statusCode).toBe(404);
      expect((await patch(99_999_999, { handled: true })).statusCode).toBe(404);
      expect((await list(t.adminToken, '?handled=maybe')).statusCode).toBe(400);
      expect((await list(t.adminToken, '?handled=maybe')).json().error.message).toMatch(/handled must be true or false/);
      expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/offline-messages/${first.id}`, payload: { handled: true } })).statusCode).toBe(401);
      expect((await list(t.adminToken)).json<Array<{ id: number; handled_at: number | null }>>()[0].handled_at).toBe(first.handled_at);
    });

    it("lets an agent mark its channels' messages only, never another account's", async () => {
      const agent = await addAgent(t, { email: 'offline-handler@example.com' });
      const adminId = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json().id as number;
      const theirs = await createWidget(t, { name: 'Admin only', agent_ids: [adminId] });
      const s = await startSession(t, theirs.widget_id);
      await visitorCall(t, theirs.widget_id, s.visitor_token, 'offline', { message: 'not for the agent' });
      const hidden = (await list(t.adminToken)).json<Array<{ id: number; message: string }>>().find((m) => m.message === 'not for the agent')!;
      expect((await patch(hidden.id, { handled: true }, agent.token)).statusCode).toBe(404);
      const other = await createOtherAccount(t, 'boss@handled.example');
      expect((await patch(hidden.id, { handled: true }, other.token)).statusCode).toBe(404);
      expect((await list(t.adminToken)).json<Array<{ id: number; handled_at: number | null }>>().find((m) => m.id === hidden.id)?.handled_at).toBeNull();
      const visible = (await list(agent.token, '?handled=false')).json<Array<{ id: number }>>()[0];
      const marked = await patch(visible.id, { handled: true }, agent.token);
      expect(marked.statusCode).toBe(200);
      expect(marked.json().handled_by).toBe(agent.id);
    });
  });
});
