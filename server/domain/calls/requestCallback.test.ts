import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOtherAccount } from '../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { AppError } from '../../errors/AppError.js';
import { CALLBACK_DISABLED, CALLBACK_UNAVAILABLE, callbackAvailability } from './callbackAvailability.js';
import { agentDialled } from './providers/agentDialled.js';
import { requestCallback } from './requestCallback.js';

const MONDAY_10_UTC = Date.parse('2024-01-01T10:00:00Z');

describe('callbackAvailability and requestCallback', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let accountId: number;
  let n = 0;

  const db = () => t.app.ctx.db;
  const putCallback = async (callback: Record<string, unknown> | null) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { callback } });
    expect(res.statusCode).toBe(200);
  };
  /** A new chat-channel visitor with an open chat. */
  const newVisitor = async () => {
    const senderId = `cb-${++n}`;
    expect((await postInbound(t, channel, textMessage(senderId, 'please call me'))).statusCode).toBe(200);
    const visitor = await db().selectFrom('visitors').select('id').where('external_id', '=', senderId).executeTakeFirstOrThrow();
    const chat = await db().selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    return { visitorId: visitor.id, chatId: chat.id };
  };
  const ask = (v: { visitorId: number; chatId?: number | null }, phone: unknown = '+1 555 010 0199') =>
    requestCallback(t.app.ctx, { accountId, channelId: channel.id, visitorId: v.visitorId, chatId: v.chatId, phone });
  const callRows = () => db().selectFrom('calls').selectAll().orderBy('id').execute();
  const endCall = (id: number) => db().updateTable('calls').set({ status: 'end' }).where('id', '=', id).execute();

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    accountId = t.app.ctx.defaultAccountId;
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await putCallback(null);
    await db().deleteFrom('calls').execute();
  });

  it('is disabled by default, until an admin enables callbacks', async () => {
    expect(await callbackAvailability(db(), { accountId, now: Date.now() })).toEqual({ result: 'fail', reason: CALLBACK_DISABLED });
    expect(CALLBACK_DISABLED).toBe('Callback disabled');
    const v = await newVisitor();
    expect(await ask(v)).toEqual({ result: 'fail', reason: 'Callback disabled' });
    expect(await callRows()).toEqual([]);
  });

  it('is unavaiable (the spec spelling) with no balance left', async () => {
    await putCallback({ enabled: true, balance_seconds: 0 });
    expect(CALLBACK_UNAVAILABLE).toBe('Callback unavaiable');
    expect(await callbackAvailability(db(), { accountId, now: MONDAY_10_UTC })).toEqual({ result: 'fail', reason: 'Callback unavaiable' });
    await putCallback({ balance_seconds: 60 });
    expect(await callbackAvailability(db(), { accountId, now: MONDAY_10_UTC })).toEqual({ result: 'ok' });
  });

  it('is unavaiable outside the hours, in the configured zone', async () => {
    await putCallback({ enabled: true, balance_seconds: 600, timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] } });
    const at = (iso: string) => callbackAvailability(db(), { accountId, now: Date.parse(iso) });
    expect(await at('2024-01-01T10:00:00Z')).toEqual({ result: 'ok' });
    expect(await at('2024-01-01T07:30:00Z')).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
    expect(await at('2024-01-01T16:00:00Z')).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
    expect(await at('2024-01-02T10:00:00Z')).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
  });

  it("requestCallback refuses outside the hours (judged at the clock's now)", async () => {
    const today = new Date().getUTCDay();
    const otherDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'][today % 7]; // the day after today (getUTCDay: 0 = sunday)
    await putCallback({ enabled: true, balance_seconds: 600, hours: { [otherDay]: [['00:00', '24:00']] } });
    expect(await ask(await newVisitor())).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
    expect(await callRows()).toEqual([]);
  });

  it("stores the call (E.164, status start, the visitor's chat) with its call.updated event", async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const v = await newVisitor();
    const result = await ask(v, '001 (555) 010-0199');
    expect(result.result).toBe('ok');
    const call = result.result === 'ok' ? result.call : null;
    expect(call).toMatchObject({
      account_id: accountId,
      channel_id: channel.id,
      visitor_id: v.visitorId,
      chat_id: v.chatId,
      agent_id: null,
      type: 'callback',
      phone: '+15550100199',
      status: 'start',
      provider: 'agent_dialled',
      connected_at: null,
      ended_at: null,
    });
    const event = await db().selectFrom('events').selectAll().where('type', '=', 'call.updated').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ account_id: accountId, chat_id: v.chatId, channel_id: channel.id });
    expect(JSON.parse(event.data_json)).toMatchObject({
      call: { id: call?.id, phone: '+15550100199', status: 'start', chat_id: v.chatId },
      visitor_id: v.visitorId,
    });
  });

  it('allows one active call per visitor: a second request is unavaiable until the first ends', async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const v = await newVisitor();
    const first = await ask(v);
    expect(first.result).toBe('ok');
    expect(await callbackAvailability(db(), { accountId, visitorId: v.visitorId, now: Date.now() })).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
    expect(await ask(v)).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
    // Another visitor, or the question without a visitor, is not affected.
    expect(await callbackAvailability(db(), { accountId, now: Date.now() })).toEqual({ result: 'ok' });
    expect((await ask(await newVisitor())).result).toBe('ok');
    if (first.result === 'ok') await endCall(first.call.id);
    expect((await ask(v)).result).toBe('ok');
  });

  it('holds one active call per visitor under concurrent requests', async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const v = await newVisitor();
    const results = await Promise.all(Array.from({ length: 8 }, () => ask(v)));
    expect(results.filter((r) => r.result === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.result === 'fail')).toEqual(Array(7).fill({ result: 'fail', reason: CALLBACK_UNAVAILABLE }));
    expect((await callRows()).filter((c) => c.visitor_id === v.visitorId && c.status === 'start')).toHaveLength(1);
  });

  it('refuses a bad phone with its reason and stores nothing', async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const v = await newVisitor();
    for (const phone of ['5550100199', '+1 555 CALL', '+123', 42])
      expect(await ask(v, phone)).toEqual({ result: 'fail', reason: 'Invalid phone number format' });
    expect(await ask(v, '')).toEqual({ result: 'fail', reason: 'Phone number is required' });
    expect(await callRows()).toEqual([]);
  });

  it("ignores a chat id that is not the visitor's, and refuses a visitor of another channel or account", async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const a = await newVisitor();
    const b = await newVisitor();
    const result = await ask({ visitorId: a.visitorId, chatId: b.chatId });
    expect(result.result === 'ok' && result.call.chat_id).toBeNull();
    const other = await createOtherAccount(t, `calls-${n}@other.example`);
    const stranger = requestCallback(t.app.ctx, { accountId: other.accountId, channelId: channel.id, visitorId: b.visitorId, phone: '+15550100199' });
    await expect(stranger).rejects.toBeInstanceOf(AppError);
    await expect(requestCallback(t.app.ctx, { accountId, channelId: channel.id + 1000, visitorId: b.visitorId, phone: '+15550100199' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('ends the call with status error when the provider cannot start it', async () => {
    await putCallback({ enabled: true, balance_seconds: 600 });
    const spy = vi.spyOn(agentDialled, 'startCall').mockRejectedValueOnce(new Error('line busy'));
    try {
      const v = await newVisitor();
      expect(await ask(v)).toEqual({ result: 'fail', reason: CALLBACK_UNAVAILABLE });
      const [call] = (await callRows()).filter((c) => c.visitor_id === v.visitorId);
      expect(call).toMatchObject({ status: 'error', reason: 'The call could not be started', agent_id: null, ended_at: expect.any(Number) });
      expect((await ask(v)).result).toBe('ok');
    } finally {
      spy.mockRestore();
    }
  });
});
