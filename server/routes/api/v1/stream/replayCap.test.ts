/**
 * The agent stream's replay cap (realtime/feed.ts MAX_REPLAY): a cursor more
 * than MAX_REPLAY events behind gets {"type":"reset","data":{"reason":
 * "too_far_behind"}} before ready and no replay (the client reloads its
 * lists), then live frames from the head; a cursor exactly MAX_REPLAY behind
 * still replays them all. The backlog is written straight into the table as
 * relayed (test/helpers/realtime.ts seedRelayedEvents).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, emit, listen, seedAgent, seedChat, seedRelayedEvents, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { MAX_REPLAY, relayedHead } from '../../../../realtime/feed.js';

describe('agent stream: the replay cap', () => {
  let t: TestApp;
  let base: string;
  const clients: StreamClient[] = [];
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(base, token, cursor));
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('answers a cursor more than MAX_REPLAY events behind with reset before ready, no replay, then live frames', async () => {
    const chat = await seedChat(t.app);
    const agent = await seedAgent(t.app);
    await allRelayed(t.app);
    const cursor = await relayedHead(t.app.ctx.db, chat.accountId);
    const backlog = await seedRelayedEvents(t.app, chat, MAX_REPLAY + 1);

    const behind = await open(agent.token, cursor);
    expect(behind.frames).toEqual([
      { type: 'reset', data: { reason: 'too_far_behind' } },
      { type: 'ready', data: { cursor: backlog[backlog.length - 1] } },
    ]);
    const live = await emit(t.app, chat, 'message.created', { n: 'live' });
    await behind.until((c) => c.frames.length === 3);
    expect(behind.frames[2]).toMatchObject({ type: 'message.created', cursor: live.id, data: { n: 'live' } });
  });

  it('replays a backlog of exactly MAX_REPLAY events in full', async () => {
    const chat = await seedChat(t.app);
    const agent = await seedAgent(t.app);
    await allRelayed(t.app);
    const cursor = await relayedHead(t.app.ctx.db, chat.accountId);
    const backlog = await seedRelayedEvents(t.app, chat, MAX_REPLAY);

    const resumed = await open(agent.token, cursor);
    expect(resumed.frames.map((f) => f.type)).not.toContain('reset');
    expect(resumed.events().map((f) => f.cursor)).toEqual(backlog);
    expect(resumed.frames[resumed.frames.length - 1]).toEqual({ type: 'ready', data: { cursor: backlog[backlog.length - 1] } });
  });
});
