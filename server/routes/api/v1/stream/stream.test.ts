import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../../../test/helpers/testApp.js';
import { allRelayed, emit, listen, liveApp, seedAccount, seedAgent, seedChat, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { setAgentStatus } from '../../../../domain/agents/setAgentStatus.js';

describe('agent stream', () => {
  const srv = liveApp({ env: { PRESENCE_GRACE_SECONDS: '1' } });
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(srv.base, token, cursor));
    srv.clients.push(c);
    return c;
  };

  it('closes with 4401 and a reason for a missing or bad token', async () => {
    const none = await StreamClient.open(`${srv.base}/api/v1/stream`);
    expect(await none.waitClosed()).toMatchObject({ code: 4401, reason: expect.stringMatching(/unauthorized/) });
    const bad = await StreamClient.open(streamUrl(srv.base, 'not-a-token'));
    expect(await bad.waitClosed()).toMatchObject({ code: 4401, reason: expect.stringMatching(/sign in again/) });
    const badCursor = await StreamClient.open(`${streamUrl(srv.base, srv.t.adminToken)}&cursor=abc`);
    expect((await badCursor.waitClosed()).code).toBe(4400);
  });

  it('sends ready, then a frame per committed event with cursor, chat_id and seq', async () => {
    const chat = await seedChat(srv.t.app);
    const client = await open(srv.t.adminToken);
    const ready = client.frames[0];
    expect(ready.type).toBe('ready');
    expect(typeof ready.data.cursor).toBe('number');
    const first = await emit(srv.t.app, chat, 'chat.created', { chat: { id: chat.chatId } });
    const second = await emit(srv.t.app, chat, 'message.created', { message: { text: 'hi' } });
    await client.until((c) => c.events().length === 2);
    expect(client.events()).toEqual([
      { type: 'chat.created', data: { chat: { id: chat.chatId } }, cursor: first.id, chat_id: chat.chatId, seq: 1 },
      { type: 'message.created', data: { message: { text: 'hi' } }, cursor: second.id, chat_id: chat.chatId, seq: 2 },
    ]);
    expect(second.id).toBeGreaterThan(ready.data.cursor as number);
  });

  it('shows an agent only its channels (an admin all), channel-less events of its account, nothing of another account', async () => {
    const mine = await seedAgent(srv.t.app);
    const other = await seedAgent(srv.t.app);
    const assigned = await seedChat(srv.t.app, { agentIds: [other.id] }); // not mine
    const shared = await seedChat(srv.t.app); // no agents: everyone's
    const foreignAccount = await seedAccount(srv.t.app);
    const stranger = await seedAgent(srv.t.app, { accountId: foreignAccount });
    const foreign = await seedChat(srv.t.app, { accountId: foreignAccount });

    const me = await open(mine.token);
    const them = await open(other.token);
    const outsider = await open(stranger.token);
    const admin = await open(srv.t.adminToken);

    await emit(srv.t.app, assigned, 'message.created', { n: 1 });
    await emit(srv.t.app, foreign, 'message.created', { n: 2 });
    await setAgentStatus(srv.t.app.ctx, { agentId: other.id, accountId: other.accountId, status: 'away' });
    await emit(srv.t.app, shared, 'message.created', { n: 3 });
    await emit(srv.t.app, foreign, 'chat.updated', { n: 4 });

    await me.until((c) => c.events().some((f) => f.data.n === 3));
    await them.until((c) => c.events().some((f) => f.data.n === 3));
    await outsider.until((c) => c.events().some((f) => f.data.n === 4));
    await admin.until((c) => c.events().some((f) => f.data.n === 3));
    const summary = (c: StreamClient) => c.events().map((f) => (f.type === 'agent.updated' ? 'agent.updated' : f.data.n));
    expect(summary(me)).toEqual(['agent.updated', 3]);
    expect(summary(them)).toEqual([1, 'agent.updated', 3]);
    expect(summary(outsider)).toEqual([2, 4]);
    expect(summary(admin)).toEqual([1, 'agent.updated', 3]);
  });

  it('resumes from a cursor: exactly the missed events, once each, in order, then live', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app);
    const first = await open(agent.token);
    await emit(srv.t.app, chat, 'message.created', { n: 0 });
    await first.until((c) => c.events().length === 1);
    const cursor = first.lastCursor();
    await first.close();

    const missed = [];
    for (let n = 1; n <= 3; n++) missed.push(await emit(srv.t.app, chat, 'message.created', { n }));
    await allRelayed(srv.t.app); // while nobody listens

    const again = await open(agent.token, cursor);
    expect(again.frames.map((f) => f.type)).toEqual(['message.created', 'message.created', 'message.created', 'ready']);
    expect(again.events().map((f) => f.cursor)).toEqual(missed.map((m) => m.id));
    expect(again.events().map((f) => f.seq)).toEqual([2, 3, 4]);
    expect(again.frames[3].data.cursor).toBe(missed[2].id);

    const live = await emit(srv.t.app, chat, 'message.created', { n: 4 });
    await again.until((c) => c.events().length === 4);
    expect(again.events()[3].cursor).toBe(live.id);
  });

  it('never doubles or drops a frame when events are committed during the replay', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app);
    await allRelayed(srv.t.app);
    const head =
      (
        await srv.t.app.ctx.db
          .selectFrom('events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0;
    for (let n = 0; n < 30; n++) await emit(srv.t.app, chat, 'message.created', { n });
    const writer = (async () => {
      for (let n = 30; n < 60; n++) await emit(srv.t.app, chat, 'message.created', { n });
    })();
    const client = await open(agent.token, head);
    await writer;
    await client.until((c) => c.events().length >= 60);
    await new Promise((r) => setTimeout(r, 100));
    const ns = client.events().map((f) => f.data.n);
    expect(ns).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('accepts the session cookie from its own origin only, and counts sockets', async () => {
    const agent = await seedAgent(srv.t.app);
    const cookie = { cookie: `parley_token=${agent.token}` };
    const ok = await StreamClient.ready(`${srv.base}/api/v1/stream`, { ...cookie, origin: 'http://parley.test' });
    srv.clients.push(ok);
    const metrics = await srv.t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/parley_open_sockets\{kind="agent"\} [1-9]/);
    const evil = await StreamClient.open(`${srv.base}/api/v1/stream`, { ...cookie, origin: 'https://evil.example' });
    expect((await evil.waitClosed()).code).toBe(4403);
  });

  it('sets an online agent offline after its last socket closes and the grace passes', async () => {
    const agent = await seedAgent(srv.t.app, { status: 'online' });
    const status = async () => (await srv.t.app.ctx.db.selectFrom('agents').select('status').where('id', '=', agent.id).executeTakeFirstOrThrow()).status;
    const a = await open(agent.token);
    const b = await open(agent.token);
    await a.close();
    await new Promise((r) => setTimeout(r, 1800));
    expect(await status()).toBe('online');
    await b.close();
    const deadline = Date.now() + 4000;
    while ((await status()) !== 'offline' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe('offline');
    const row = await srv.t.app.ctx.db
      .selectFrom('events')
      .select(['type', 'data_json'])
      .where('type', '=', 'agent.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.data_json).agent).toMatchObject({ id: agent.id, status: 'offline' });
  });

  it('keeps an agent that reconnects within the grace, and leaves away agents alone', async () => {
    const online = await seedAgent(srv.t.app, { status: 'online' });
    const away = await seedAgent(srv.t.app, { status: 'away' });
    const status = async (id: number) => (await srv.t.app.ctx.db.selectFrom('agents').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    await (await open(online.token)).close();
    await (await open(away.token)).close();
    await open(online.token);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await status(online.id)).toBe('online');
    expect(await status(away.id)).toBe('away');
  });
});

describe('agent stream on shutdown', () => {
  it('closes open sockets and the app promptly', async () => {
    const t = await createTestApp();
    const base = await listen(t.app);
    const client = await StreamClient.ready(streamUrl(base, t.adminToken));
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await client.waitClosed()).code).toBeGreaterThanOrEqual(1000);
  });
});
