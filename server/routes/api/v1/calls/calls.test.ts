import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { listen, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import type { Call } from '../../../../db/schema.js';
import type { CallDto } from '../../../../presenters/call.js';
import { requestCallback } from '../../../../domain/calls/requestCallback.js';

/** The parts of a call_event body these tests read. */
interface CallEventBody {
  event_name: string;
  chat_id?: number;
  agent?: { id: number };
  visitor: Record<string, unknown>;
  call: { type: string; phone: string; status: string; reason?: string; record_url?: string };
}

const BALANCE = 3600;

describe('/api/v1/calls and call_event (issue 7)', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let agent: { id: number; token: string };
  let n = 0;
  /** Added to the real time: lets a test pretend a call lasted minutes. */
  let offset = 0;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const post = (id: number, body: Record<string, unknown>, token = agent.token) => api('POST', `/calls/${id}/status`, body, token);
  const callEvents = (callPhone: string) =>
    receiver.requests.map((r) => JSON.parse(r.body) as CallEventBody).filter((b) => b.event_name === 'call_event' && b.call.phone === callPhone);
  const eventWith = (phone: string, status: string) => waitFor(() => callEvents(phone).find((b) => b.call.status === status));
  const balance = async () => (await api('GET', '/settings')).json().callback.balance_seconds as number;

  /** A chat-channel visitor with a chat asks for a callback on a phone number of its own. */
  const newCall = async (): Promise<{ call: Call; chatId: number; phone: string }> => {
    const senderId = `call-${++n}`;
    await postInbound(t, channel, textMessage(senderId, 'call me', { name: `Caller ${n}` }));
    const db = t.app.ctx.db;
    const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const chat = await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    const phone = `+1555010${String(1000 + n)}`;
    const result = await requestCallback(t.app.ctx, {
      accountId: t.app.ctx.defaultAccountId,
      channelId: channel.id,
      visitorId: visitor.id,
      chatId: chat.id,
      phone: `${phone.slice(0, 2)} ${phone.slice(2)}`,
    });
    if (result.result !== 'ok') throw new Error(`requestCallback: ${result.reason}`);
    return { call: result.call, chatId: chat.id, phone };
  };

  beforeAll(async () => {
    t = await createTestApp({ clock: () => Date.now() + offset });
    receiver = await startCustomerEndpoint();
    expect(
      (await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events`, callback: { enabled: true, balance_seconds: BALANCE } })).statusCode,
    ).toBe(200);
    channel = await createChatChannel(t);
    agent = await addAgent(t, { email: 'caller-agent@example.com', name: 'Ada Agent' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('sends call_event start → agent_connected → client_connected → end (+record_url), reported by an agent, and charges the balance', async () => {
    const { call, chatId, phone } = await newCall();
    const start = await eventWith(phone, 'start');
    expect(start).toMatchObject({
      event_name: 'call_event',
      widget_id: channel.public_id,
      chat_id: chatId,
      user_token: null,
      call: { type: 'callback', phone, status: 'start' },
    });
    // No agent took the call yet: the key is left out, never null (issue #17 item 1).
    expect(start).not.toHaveProperty('agent');
    expect(start.visitor).toMatchObject({ name: `Caller ${n}` });
    expect(start.call).not.toHaveProperty('reason');
    expect(start.call).not.toHaveProperty('record_url');

    const before = await balance();
    const connected = await post(call.id, { status: 'agent_connected' });
    expect(connected.statusCode).toBe(200);
    expect(connected.json()).toMatchObject({ id: call.id, status: 'agent_connected', agent_id: agent.id, connected_at: expect.any(Number) });
    const agentShape = { id: agent.id, name: 'Ada Agent', email: 'caller-agent@example.com' };
    expect(await eventWith(phone, 'agent_connected')).toMatchObject({
      chat_id: chatId,
      agent: agentShape,
      call: { type: 'callback', phone, status: 'agent_connected' },
    });

    expect((await post(call.id, { status: 'client_connected' })).statusCode).toBe(200);
    expect(await eventWith(phone, 'client_connected')).toMatchObject({ chat_id: chatId, agent: agentShape, call: { status: 'client_connected' } });

    offset += 90_000; // the call lasts a minute and a half
    const ended = await post(call.id, { status: 'end', record_url: 'https://records.example.com/calls/1.mp3' });
    expect(ended.statusCode).toBe(200);
    const body = ended.json();
    expect(body).toMatchObject({ status: 'end', record_url: 'https://records.example.com/calls/1.mp3', ended_at: expect.any(Number) });
    expect(body).not.toHaveProperty('reason');
    expect(body.duration_seconds).toBeGreaterThanOrEqual(90);
    expect(body.duration_seconds).toBe(Math.ceil((body.ended_at - body.connected_at) / 1000));
    const end = await eventWith(phone, 'end');
    expect(end).toMatchObject({
      chat_id: chatId,
      agent: agentShape,
      call: { type: 'callback', phone, status: 'end', record_url: 'https://records.example.com/calls/1.mp3' },
    });
    expect(end.call).not.toHaveProperty('reason');
    expect(callEvents(phone).map((b) => b.call.status)).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
    expect(await balance()).toBe(before - body.duration_seconds);
  });

  it("names the agent who accepted the visitor's chat from the start", async () => {
    const senderId = `call-${++n}`;
    await postInbound(t, channel, textMessage(senderId, 'hello'));
    const db = t.app.ctx.db;
    const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const chat = await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    expect((await api('POST', `/chats/${chat.id}/accept`, undefined, agent.token)).statusCode).toBe(200);
    const result = await requestCallback(t.app.ctx, {
      accountId: t.app.ctx.defaultAccountId,
      channelId: channel.id,
      visitorId: visitor.id,
      chatId: chat.id,
      phone: '+44 20 7946 0958',
    });
    expect(result.result === 'ok' && result.call.agent_id).toBe(agent.id);
    expect(await eventWith('+442079460958', 'start')).toMatchObject({ chat_id: chat.id, agent: { id: agent.id, name: 'Ada Agent' } });
  });

  it('sends call_event error with its reason; a call that never connected costs nothing', async () => {
    const { call, chatId, phone } = await newCall();
    const before = await balance();
    const res = await post(call.id, { status: 'error', reason: 'Number unreachable' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'error', reason: 'Number unreachable', duration_seconds: 0, agent_id: agent.id });
    const error = await eventWith(phone, 'error');
    expect(error).toMatchObject({ chat_id: chatId, agent: { id: agent.id }, call: { type: 'callback', phone, status: 'error', reason: 'Number unreachable' } });
    expect(error.call).not.toHaveProperty('record_url');
    expect(await balance()).toBe(before);
  });

  it('never takes the balance below 0', async () => {
    await api('PUT', '/settings', { callback: { balance_seconds: 30 } });
    const { call } = await newCall();
    await post(call.id, { status: 'client_connected' });
    offset += 120_000;
    expect((await post(call.id, { status: 'end' })).json().duration_seconds).toBeGreaterThanOrEqual(120);
    expect(await balance()).toBe(0);
    await api('PUT', '/settings', { callback: { balance_seconds: BALANCE } });
  });

  it('refuses any change after end or error with 409, and leaves the call as it was', async () => {
    const a = await newCall();
    await post(a.call.id, { status: 'end' });
    const b = await newCall();
    await post(b.call.id, { status: 'error' });
    for (const id of [a.call.id, b.call.id]) {
      const before = (await api('GET', `/calls/${id}`)).json();
      for (const status of ['agent_connected', 'client_connected', 'end', 'error']) {
        const res = await post(id, { status });
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toEqual({
          code: 'call_finished',
          message: `Call ${id} has already ended (status ${before.status}); its status can no longer change.`,
        });
      }
      expect((await api('GET', `/calls/${id}`)).json()).toEqual(before);
    }
  });

  it('refuses unknown statuses and bad values with 400', async () => {
    const { call } = await newCall();
    for (const body of [
      { status: 'start' },
      { status: 'ringing' },
      {},
      { status: 'end', record_url: 'ftp://x.example/a.mp3' },
      { status: 'end', record_url: 'not a url' },
      { status: 'error', reason: 5 },
    ]) {
      const res = await post(call.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await api('GET', `/calls/${call.id}`)).json().status).toBe('start');
  });

  it('a repeated report changes nothing and sends no second event', async () => {
    const { call, phone } = await newCall();
    // The call_event body is built from the calls row when the event is relayed, so wait for each (see the report).
    await eventWith(phone, 'start');
    const first = (await post(call.id, { status: 'agent_connected' })).json();
    const again = await post(call.id, { status: 'agent_connected' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
    await eventWith(phone, 'agent_connected');
    await post(call.id, { status: 'end' });
    await eventWith(phone, 'end');
    expect(callEvents(phone).map((b) => b.call.status)).toEqual(['start', 'agent_connected', 'end']);
  });

  it("lists the account's calls newest first, by status, in pages, with every field", async () => {
    const a = await newCall();
    const b = await newCall();
    const list = await api('GET', '/calls', undefined, agent.token);
    expect(list.statusCode).toBe(200);
    const calls = list.json<CallDto[]>();
    expect(calls.slice(0, 2).map((c) => c.id)).toEqual([b.call.id, a.call.id]);
    expect(calls[0]).toEqual({
      id: b.call.id,
      chat_id: b.chatId,
      visitor_id: b.call.visitor_id,
      channel_id: channel.id,
      agent_id: null,
      type: 'callback',
      phone: b.phone,
      status: 'start',
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      connected_at: null,
      ended_at: null,
      duration_seconds: null,
    });
    const started = (await api('GET', '/calls?status=start')).json<CallDto[]>();
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(started.every((c) => c.status === 'start')).toBe(true);
    expect((await api('GET', '/calls?status=end')).json<CallDto[]>().every((c) => c.status === 'end')).toBe(true);
    const page = (await api('GET', `/calls?limit=1&before=${b.call.id}`)).json<CallDto[]>();
    expect(page.map((c) => c.id)).toEqual([a.call.id]);
    expect((await api('GET', '/calls?status=ringing')).statusCode).toBe(400);
    expect((await api('GET', '/calls?limit=0')).statusCode).toBe(400);
    expect((await api('GET', `/calls/${a.call.id}`, undefined, agent.token)).json()).toMatchObject({ id: a.call.id, phone: a.phone });
  });

  it("answers 404 for another account's call or an unknown one, and 401 without a token", async () => {
    const { call } = await newCall();
    const other = await createOtherAccount(t, 'calls-boss@other.example');
    expect((await api('GET', `/calls/${call.id}`, undefined, other.token)).statusCode).toBe(404);
    const res = await post(call.id, { status: 'agent_connected' }, other.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect((await api('GET', '/calls', undefined, other.token)).json()).toEqual([]);
    expect((await api('GET', `/calls/${call.id}`)).json().status).toBe('start');
    expect((await api('GET', '/calls/999999')).statusCode).toBe(404);
    expect((await api('GET', '/calls/abc')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/calls' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/calls/${call.id}/status`, payload: { status: 'nope' } })).statusCode).toBe(401);
  });

  it('rings the agents: their stream shows call.updated for the new call and each status', async () => {
    const base = await listen(t.app);
    const stream = await StreamClient.ready(streamUrl(base, agent.token));
    try {
      const { call, chatId } = await newCall();
      const frameOf = (status: string) =>
        stream.events().find((f) => f.type === 'call.updated' && (f.data.call as CallDto).id === call.id && (f.data.call as CallDto).status === status);
      await stream.until(() => frameOf('start') !== undefined);
      expect(frameOf('start')).toMatchObject({
        chat_id: chatId,
        data: { call: { id: call.id, chat_id: chatId, status: 'start' }, visitor_id: call.visitor_id },
      });
      await post(call.id, { status: 'agent_connected' });
      await stream.until(() => frameOf('agent_connected') !== undefined);
      expect(frameOf('agent_connected')?.data.call).toMatchObject({ agent_id: agent.id });
    } finally {
      stream.ws.close();
    }
  });
});
