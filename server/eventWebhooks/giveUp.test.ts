/**
 * One event type a receiver refuses does not stop the others (#17 item 2): a
 * receiver answering 500 to call_event for the whole retry schedule (shortened
 * here: each next attempt is made due at once, the eight attempts are real
 * requests) has that type given up on, shown with its answer; chat_accepted
 * and the other types keep flowing, and the URL is not paused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { requestCallback } from '../domain/calls/requestCallback.js';

describe('an event type the receiver refuses for the whole schedule is given up on, the others keep flowing', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let n = 0;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const sent = (name: string) => receiver.requests.filter((r) => JSON.parse(r.body).event_name === name);
  const deliveries = (eventType: string) =>
    t.app.ctx.db.selectFrom('deliveries').selectAll().where('event_type', '=', eventType).orderBy('id', 'asc').execute();

  /** A new chat-channel chat, accepted by the admin: its chat_accepted goes out. */
  const acceptedChat = async () => {
    const senderId = `gu-${++n}`;
    await postInbound(t, channel, textMessage(senderId, 'hello', { name: `Visitor ${n}` }));
    const db = t.app.ctx.db;
    const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const chat = await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    expect((await api('POST', `/chats/${chat.id}/accept`)).statusCode).toBe(200);
    return { chatId: chat.id, visitorId: visitor.id };
  };
  const callback = async (chat: { chatId: number; visitorId: number }) => {
    const result = await requestCallback(t.app.ctx, {
      accountId: t.app.ctx.defaultAccountId,
      channelId: channel.id,
      visitorId: chat.visitorId,
      chatId: chat.chatId,
      phone: `+1 55501${String(10000 + n)}`,
    });
    if (result.result !== 'ok') throw new Error(`requestCallback: ${result.reason}`);
  };

  /** The shortened schedule: every next attempt of the delivery is made due at once, until it is settled. */
  const runSchedule = async (id: number) => {
    const db = t.app.ctx.db;
    for (;;) {
      const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status !== 'pending') return row;
      if (row.next_attempt_at > Date.now() && row.locked_until === null) {
        await db.updateTable('deliveries').set({ next_attempt_at: Date.now() }).where('id', '=', id).where('attempts', '=', row.attempts).execute();
        t.app.ctx.signals.deliveriesDue();
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startCustomerEndpoint((req) =>
      JSON.parse(req.body).event_name === 'call_event' ? { status: 500, body: 'unknown event: call_event' } : { status: 200, body: '{"result":"ok"}' },
    );
    const settings = await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events`, callback: { enabled: true, balance_seconds: 3600 } });
    expect(settings.statusCode).toBe(200);
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('gives up on call_event with the answer, never pauses, and still sends chat_accepted and chat_updated', async () => {
    const first = await acceptedChat();
    await waitFor(() => sent('chat_accepted').length === 1);
    await callback(first);
    const [call] = await waitFor(async () => {
      const rows = await deliveries('call_event');
      return rows.length === 1 && rows;
    });
    const settled = await runSchedule(call.id);

    // Every attempt of the schedule was made, and refused.
    expect(settled).toMatchObject({ status: 'failed', attempts: call.max_attempts, last_status_code: 500 });
    expect(settled.last_error).toMatch(/call_event given up/);
    expect(sent('call_event')).toHaveLength(call.max_attempts);
    const settings = (await api('GET', '/settings')).json();
    expect(settings.webhooks_paused_reason).toBeNull();
    const givenUp = await api('GET', '/settings/webhooks/given-up');
    expect(givenUp.statusCode).toBe(200);
    expect(givenUp.json()).toEqual([
      {
        event_type: 'call_event',
        url: `${receiver.url}/events`,
        given_up_at: expect.any(Number),
        status_code: 500,
        response: 'unknown event: call_event',
        error: 'HTTP 500',
        skipped: 0,
        delivery_id: call.id,
      },
    ]);

    // The other types keep flowing: a new chat's chat_accepted and chat_updated reach the receiver at once.
    const second = await acceptedChat();
    const accepted = await waitFor(() => sent('chat_accepted').find((r) => JSON.parse(r.body).chat_id === second.chatId));
    expect(accepted).toBeDefined();
    await postInbound(t, channel, textMessage(`gu-${n}`, 'my mail', { name: `Visitor ${n}`, email: 'v@example.com' }));
    await waitFor(() => sent('chat_updated').find((r) => JSON.parse(r.body).chat_id === second.chatId));
    expect((await deliveries('chat_accepted')).every((d) => d.status === 'delivered')).toBe(true);

    // A new call_event is not sent, only counted.
    await callback(second);
    await waitFor(async () => (await api('GET', '/settings/webhooks/given-up')).json()[0]?.skipped === 1);
    expect(await deliveries('call_event')).toHaveLength(1);
    expect(sent('call_event')).toHaveLength(call.max_attempts);

    // An admin sends the type again: the next call_event goes out.
    const resumed = await api('POST', '/settings/webhooks/given-up/call_event/resume');
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toEqual([]);
    const third = await acceptedChat();
    await callback(third);
    await waitFor(() => sent('call_event').length > call.max_attempts);
  });

  it('a redelivery of a given-up type sends the type again', async () => {
    const chat = await acceptedChat();
    await callback(chat);
    const rows = await waitFor(async () => {
      const all = await deliveries('call_event');
      return all.find((d) => d.status === 'pending' && d.chat_id === chat.chatId);
    });
    await runSchedule(rows.id);
    expect((await api('GET', '/settings/webhooks/given-up')).json().map((g: { event_type: string }) => g.event_type)).toEqual(['call_event']);
    const redelivered = await api('POST', `/deliveries/${rows.id}/redeliver`);
    expect(redelivered.statusCode).toBe(200);
    expect((await api('GET', '/settings/webhooks/given-up')).json()).toEqual([]);
  });

  it('a receiver that answers nothing at all is paused as before, not given up on per type', async () => {
    const db = t.app.ctx.db;
    // Another account-wide receiver that fails everything; older answers of the first one are at another URL.
    const down = await startCustomerEndpoint(() => ({ status: 503, body: 'down' }));
    try {
      expect((await api('PUT', '/settings', { event_webhook_url: `${down.url}/events` })).statusCode).toBe(200);
      const chat = await acceptedChat();
      const row = await waitFor(() =>
        db.selectFrom('deliveries').selectAll().where('event_type', '=', 'chat_accepted').where('chat_id', '=', chat.chatId).executeTakeFirst(),
      );
      expect(await runSchedule(row.id)).toMatchObject({ status: 'failed' });
      const settings = (await api('GET', '/settings')).json();
      expect(settings.webhooks_paused_reason).toMatch(/failed every attempt.*answered no other delivery/);
      expect((await api('GET', '/settings/webhooks/given-up')).json()).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it('agents may neither list nor resume given-up types', async () => {
    await api('POST', '/agents', { name: 'Ag', email: 'gu-agent@example.com', password: 'ag-password-1', role: 'agent' });
    const token = await t.login('gu-agent@example.com', 'ag-password-1');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings/webhooks/given-up', headers: bearer(token) })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/settings/webhooks/given-up/call_event/resume', headers: bearer(token) });
    expect(res.statusCode).toBe(403);
  });
});
