/**
 * The agent stream's replay cap (realtime/feed.ts MAX_REPLAY): a cursor more
 * than MAX_REPLAY events behind gets {"type":"reset","data":{"reason":
 * "too_far_behind"}} before ready and no replay (the client reloads its
 * lists), then live frames from the head; a cursor exactly MAX_REPLAY behind
 * still replays them all. The backlog is written straight into the table as
 * relayed (test/helpers/realtime.ts seedRelayedEvents).
 */
import { describe, expect, it } from 'vitest';
import { allRelayed, emit, liveApp, seedAgent, seedChat, seedRelayedEvents, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';

import { MAX_REPLAY, relayedHead } from '../../../../realtime/feed.js';

describe('agent stream: the replay cap', () => {
  const srv = liveApp();
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(srv.base, token, cursor));
    srv.clients.push(c);
    return c;
  };

  it('answers a cursor more than MAX_REPLAY events behind with reset before ready, no replay, then live frames', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app);
    await allRelayed(srv.t.app);
    const cursor = await relayedHead(srv.t.app.ctx.db, chat.accountId);
    const backlog = await seedRelayedEvents(srv.t.app, chat, MAX_REPLAY + 1);

    const behind = await open(agent.token, cursor);
    expect(behind.frames).toEqual([
      { type: 'reset', data: { reason: 'too_far_behind' } },
      { type: 'ready', data: { cursor: backlog[backlog.length - 1] } },
    ]);
    const live = await emit(srv.t.app, chat, 'message.created', { n: 'live' });
    await behind.until((c) => c.frames.length === 3);
    expect(behind.frames[2]).toMatchObject({ type: 'message.created', cursor: live.id, data: { n: 'live' } });
  });

  it('replays a backlog of exactly MAX_REPLAY events in full', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app);
    await allRelayed(srv.t.app);
    const cursor = await relayedHead(srv.t.app.ctx.db, chat.accountId);
    const backlog = await seedRelayedEvents(srv.t.app, chat, MAX_REPLAY);

    const resumed = await open(agent.token, cursor);
    expect(resumed.frames.map((f) => f.type)).not.toContain('reset');
    expect(resumed.events().map((f) => f.cursor)).toEqual(backlog);
    expect(resumed.frames[resumed.frames.length - 1]).toEqual({ type: 'ready', data: { cursor: backlog[backlog.length - 1] } });
  });
});
