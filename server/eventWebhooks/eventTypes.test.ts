/**
 * Choosing the event types (settings `event_webhook_types`, issue #17 items 2
 * and 8) against a real receiver: the spec's types are sent by default and
 * the extras (chat_started, chat_missed, chat_rated) are not; switched on,
 * each arrives when its moment comes; switching a type off cancels its
 * pending deliveries in the same change (they are never sent) and makes no
 * new ones, while the other types keep flowing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerEndpoint, waitFor, type RecordedRequest } from '../../test/helpers/chatChannel.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { bodyProblems } from '../../test/helpers/webhookBodies.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { sweepMissedChats } from '../mail/missedChats.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('event types: chosen per account, extras opt-in (issue #17)', () => {
  let t: TestApp;
  let widget: TestWidget;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let offset = 0;
  let failChatUpdated = false;
  let n = 0;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const bodies = (): Body[] => receiver.requests.map((r: RecordedRequest) => JSON.parse(r.body) as Body);
  const sent = (name: string, chatId: number) => bodies().filter((b) => b.event_name === name && b.chat_id === chatId);
  const arrives = (name: string, chatId: number) => waitFor(() => sent(name, chatId)[0], 10_000);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** A widget visitor writes: a new pending chat. */
  const newChat = async () => {
    const s = await startSession(t, widget.widget_id);
    const m = await sendText(t, widget.widget_id, s.visitor_token, `hello ${++n}`);
    return { token: s.visitor_token, chatId: m.chat_id };
  };

  beforeAll(async () => {
    t = await createTestApp({ clock: () => Date.now() + offset });
    receiver = await startCustomerEndpoint((req) =>
      failChatUpdated && JSON.parse(req.body).event_name === 'chat_updated' ? { status: 500, body: 'no' } : { status: 200, body: '{"result":"ok"}' },
    );
    expect((await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` })).statusCode).toBe(200);
    widget = await createWidget(t, { name: 'Types' });
  });
  afterAll(async () => {
    const problems = bodies().flatMap(bodyProblems);
    await t.close();
    await receiver.close();
    expect(problems).toEqual([]);
  });

  it('sends the spec types by default, never chat_started or chat_rated', async () => {
    const { token, chatId } = await newChat();
    await api('POST', `/chats/${chatId}/accept`);
    expect((await visitorCall(t, widget.widget_id, token, 'rate', { rate: 'positive' })).statusCode).toBe(204);
    await arrives('chat_accepted', chatId);
    await allRelayed(t.app);
    await sleep(300);
    expect(sent('chat_started', chatId)).toEqual([]);
    expect(sent('chat_rated', chatId)).toEqual([]);
  });

  it('refuses an unknown type or a value that is not a boolean with a 400, and changes nothing', async () => {
    const before = (await api('GET', '/settings')).json();
    for (const bad of ['{"chat_deleted":true}', '{"hasOwnProperty":false}', '{"toString":true}', '{"chat_started":"yes"}', '["chat_started"]']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings',
        headers: { ...bearer(t.adminToken), 'content-type': 'application/json' },
        payload: `{"event_webhook_types":${bad},"safe_url":"https://shop.example.com"}`,
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.message).toMatch(/event_webhook_types/);
    }
    expect((await api('GET', '/settings')).json()).toEqual(before);
  });

  it('switched on, chat_started and chat_rated arrive: a new chat waiting, each rating during the chat and after it', async () => {
    const res = await api('PUT', '/settings', { event_webhook_types: { chat_started: true, chat_rated: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json().event_webhook_types).toMatchObject({ chat_started: true, chat_rated: true, chat_missed: false, chat_accepted: true });

    const { token, chatId } = await newChat();
    const started = await arrives('chat_started', chatId);
    expect(started).toMatchObject({ event_name: 'chat_started', widget_id: widget.widget_id, chat_id: chatId, user_token: null });
    expect(started).not.toHaveProperty('agent');

    expect((await visitorCall(t, widget.widget_id, token, 'rate', { rate: 'negative' })).statusCode).toBe(204);
    const first = await arrives('chat_rated', chatId);
    expect(first).toMatchObject({ chat_id: chatId, rate: 'negative' });
    expect(first).not.toHaveProperty('agent');

    const me = (await api('GET', '/me')).json();
    await api('POST', `/chats/${chatId}/accept`);
    await api('POST', `/chats/${chatId}/finish`, {});
    expect((await visitorCall(t, widget.widget_id, token, 'rate', { rate: 'positive' })).statusCode).toBe(204);
    const again = await waitFor(() => sent('chat_rated', chatId)[1], 10_000);
    expect(again).toMatchObject({ chat_id: chatId, rate: 'positive', agent: { id: me.id } });
  });

  it('switching a type off cancels its pending deliveries at once (never sent) and makes no new ones; other types keep flowing', async () => {
    failChatUpdated = true;
    const { token, chatId } = await newChat();
    await visitorCall(t, widget.widget_id, token, 'contact', { name: 'Una Updated' });
    await arrives('chat_updated', chatId);
    const pending = await waitFor(async () => {
      const row = await t.app.ctx.db
        .selectFrom('deliveries')
        .selectAll()
        .where('event_type', '=', 'chat_updated')
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      return row?.attempts === 1 && row.locked_until === null ? row : null;
    });
    expect(pending.status).toBe('pending');

    const res = await api('PUT', '/settings', { event_webhook_types: { chat_updated: false } });
    expect(res.json().event_webhook_types.chat_updated).toBe(false);
    const row = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'cancelled', last_error: expect.stringMatching(/switched this event type off/) });
    const listed = (await api('GET', '/deliveries?status=cancelled')).json();
    expect(listed.map((d: { id: number }) => d.id)).toContain(pending.id);

    // The retry was due 5 s after the first attempt: it never comes.
    await visitorCall(t, widget.widget_id, token, 'contact', { name: 'Una Again' });
    await api('POST', `/chats/${chatId}/accept`);
    await arrives('chat_accepted', chatId);
    await sleep(6000);
    expect(sent('chat_updated', chatId)).toHaveLength(1);
    const rows = await t.app.ctx.db.selectFrom('deliveries').select('id').where('event_type', '=', 'chat_updated').where('chat_id', '=', chatId).execute();
    expect(rows).toHaveLength(1);

    // null: back to the default (on).
    failChatUpdated = false;
    expect((await api('PUT', '/settings', { event_webhook_types: { chat_updated: null } })).json().event_webhook_types.chat_updated).toBe(true);
    await visitorCall(t, widget.widget_id, token, 'contact', { name: 'Una Third' });
    await waitFor(() => sent('chat_updated', chatId).find((b) => b.visitor.name === 'Una Third'), 10_000);
  }, 30_000);

  it('switched on, chat_missed arrives once when a chat waited past notifications.missed_chat_minutes', async () => {
    const res = await api('PUT', '/settings', { event_webhook_types: { chat_missed: true }, notifications: { missed_chat_minutes: 5 } });
    expect(res.statusCode).toBe(200);
    // The earlier chats of this file were accepted or finished; this one waits.
    const { chatId } = await newChat();
    offset += 6 * 60_000;
    expect(await sweepMissedChats(t.app.ctx)).toBeGreaterThanOrEqual(1);
    const missed = await arrives('chat_missed', chatId);
    expect(missed).toMatchObject({ event_name: 'chat_missed', chat_id: chatId, waited_minutes: 6 });
    expect(missed).not.toHaveProperty('agent');
    await sweepMissedChats(t.app.ctx);
    await allRelayed(t.app);
    await sleep(300);
    expect(sent('chat_missed', chatId)).toHaveLength(1);

    // Reset: every type back to its default, so chat_missed is off again.
    const reset = (await api('PUT', '/settings', { event_webhook_types: null })).json().event_webhook_types;
    expect(reset).toMatchObject({ chat_missed: false, chat_started: false, chat_rated: false, chat_updated: true });
  });
});
