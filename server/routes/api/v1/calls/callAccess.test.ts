/**
 * Calls follow the channel access rule of chats (#15 item 9, docs/SECURITY.md
 * §9): an agent who does not work a call's channel does not see its visitor's
 * phone number (GET /api/v1/calls, GET /api/v1/calls/:id, call.updated frames
 * on the stream) nor change it (POST /api/v1/calls/:id/status → 404, nothing
 * changed); a channel with no agent_ids is every agent's, so there any agent
 * of the account may post a status (/openapi.json); administrators see all.
 * Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, rowsOf } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { listen, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { requestCallback } from '../../../../domain/calls/requestCallback.js';
import type { Call } from '../../../../db/schema.js';
import type { CallDto } from '../../../../presenters/call.js';

describe('calls follow the channel access rules of chats', () => {
  let t: TestApp;
  let open: ChatChannel;
  let aliceOnly: ChatChannel;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let n = 0;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const phonesSeenBy = async (token: string): Promise<string[]> => {
    const res = await api('GET', '/calls?limit=1000', token);
    expect(res.statusCode).toBe(200);
    return res.json<CallDto[]>().map((c) => c.phone);
  };

  /** A visitor of the channel asks for a callback. */
  const newCall = async (channel: ChatChannel): Promise<Call> => {
    const senderId = `access-${++n}`;
    await postInbound(t, channel, textMessage(senderId, 'call me'));
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const result = await requestCallback(t.app.ctx, {
      accountId: t.app.ctx.defaultAccountId,
      channelId: channel.id,
      visitorId: visitor.id,
      phone: `+1555020${String(1000 + n)}`,
    });
    if (result.result !== 'ok') throw new Error(`requestCallback: ${result.reason}`);
    return result.call;
  };

  beforeAll(async () => {
    t = await createTestApp();
    expect((await api('PUT', '/settings', t.adminToken, { callback: { enabled: true, balance_seconds: 3600 } })).statusCode).toBe(200);
    alice = await addAgent(t, { email: 'alice-calls@example.com', name: 'Alice' });
    bob = await addAgent(t, { email: 'bob-calls@example.com', name: 'Bob' });
    open = await createChatChannel(t, { name: 'Everyone', agent_ids: [] });
    aliceOnly = await createChatChannel(t, { name: 'Alice only', agent_ids: [alice.id] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists and reads only the calls of channels the agent works; administrators see all', async () => {
    const hidden = await newCall(aliceOnly);
    const shared = await newCall(open);
    expect(await phonesSeenBy(bob.token)).toContain(shared.phone);
    expect(await phonesSeenBy(bob.token)).not.toContain(hidden.phone);
    expect(await phonesSeenBy(alice.token)).toEqual(expect.arrayContaining([hidden.phone, shared.phone]));
    expect(await phonesSeenBy(t.adminToken)).toEqual(expect.arrayContaining([hidden.phone, shared.phone]));
    // ?status= does not widen it.
    expect((await api('GET', '/calls?status=start', bob.token)).json().map((c: CallDto) => c.id)).not.toContain(hidden.id);

    const read = await api('GET', `/calls/${hidden.id}`, bob.token);
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain(hidden.phone);
    expect((await api('GET', `/calls/${hidden.id}`, alice.token)).json().phone).toBe(hidden.phone);
    expect((await api('GET', `/calls/${shared.id}`, bob.token)).statusCode).toBe(200);
  });

  it('refuses a status from an agent who does not work the channel (404, nothing changed); any agent on a channel with no agent_ids', async () => {
    const hidden = await newCall(aliceOnly);
    const before = [await rowsOf(t, 'calls'), await rowsOf(t, 'events')];
    const refused = await api('POST', `/calls/${hidden.id}/status`, bob.token, { status: 'agent_connected' });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain(hidden.phone);
    expect([await rowsOf(t, 'calls'), await rowsOf(t, 'events')]).toEqual(before);
    expect((await api('POST', `/calls/${hidden.id}/status`, alice.token, { status: 'agent_connected' })).json().status).toBe('agent_connected');
    expect((await api('POST', `/calls/${hidden.id}/status`, t.adminToken, { status: 'end' })).json().status).toBe('end');

    const shared = await newCall(open);
    const res = await api('POST', `/calls/${shared.id}/status`, bob.token, { status: 'agent_connected' });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent_id).toBe(bob.id);
  });

  it('follows a change of the channel’s agents', async () => {
    const channel = await createChatChannel(t, { name: 'Later Bob', agent_ids: [alice.id] });
    const call = await newCall(channel);
    expect(await phonesSeenBy(bob.token)).not.toContain(call.phone);
    expect((await api('PATCH', `/channels/${channel.id}`, t.adminToken, { agent_ids: [alice.id, bob.id] })).statusCode).toBeLessThan(300);
    expect(await phonesSeenBy(bob.token)).toContain(call.phone);
  });

  it('sends call.updated frames only to the streams of agents who work the channel', async () => {
    const base = await listen(t.app);
    const bobStream = await StreamClient.ready(streamUrl(base, bob.token));
    const aliceStream = await StreamClient.ready(streamUrl(base, alice.token));
    try {
      const hidden = await newCall(aliceOnly);
      const shared = await newCall(open);
      const callFrames = (s: StreamClient) =>
        s
          .events()
          .filter((f) => f.type === 'call.updated')
          .map((f) => f.data.call as CallDto);
      await aliceStream.until((s) => callFrames(s).some((c) => c.id === shared.id));
      await bobStream.until((s) => callFrames(s).some((c) => c.id === shared.id));
      // The hidden call's frame came before the shared one's (one order per account): Bob's stream skipped it.
      expect(callFrames(aliceStream).map((c) => c.id)).toContain(hidden.id);
      expect(callFrames(bobStream).map((c) => c.id)).not.toContain(hidden.id);
      expect(JSON.stringify(bobStream.frames)).not.toContain(hidden.phone);
    } finally {
      await bobStream.close();
      await aliceStream.close();
    }
  });
});
