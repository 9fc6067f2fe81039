/**
 * The agent stream after retention deleted events: a cursor older than what
 * is kept gets {"type":"reset"} before ready and no replay (the client
 * reloads), then live events; a cursor at or past the account's deletion
 * mark replays exactly as before; a socket without a cursor starts at the
 * mark even when every event of the account is gone. Time is moved through
 * the app's clock for the retention pass only (tokens are checked with it).
 */
import { describe, expect, it } from 'vitest';
import { allRelayed, emit, liveApp, seedAgent, seedChat, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';

import { deletedThrough } from '../../../../events/eventMarks.js';
import { Retention } from '../../../../retention/worker.js';

const DAY = 24 * 60 * 60 * 1000;
const TOKEN_TTL_SECONDS = 365 * 24 * 60 * 60;

describe('agent stream and retention', () => {
  // Tokens outlive the jump: the retention pass also deletes expired login tokens.
  const srv = liveApp({ clock: () => Date.now() + offset, env: { TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) } });
  let offset = 0;
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(srv.base, token, cursor));
    srv.clients.push(c);
    return c;
  };
  /** Runs a retention pass as if `days` had passed. */
  const pruneAfter = async (days: number): Promise<void> => {
    offset = days * DAY;
    try {
      await new Retention(srv.t.app.ctx).pass();
    } finally {
      offset = 0;
    }
  };

  it('answers a cursor older than the kept events with reset before ready, no replay, then live frames', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app, { tokenTtlSeconds: TOKEN_TTL_SECONDS });
    const first = await open(agent.token);
    await emit(srv.t.app, chat, 'message.created', { n: 0 });
    await first.until((c) => c.events().length === 1);
    const cursor = first.lastCursor();
    await first.close();
    const missed = [];
    for (let n = 1; n <= 3; n++) missed.push(await emit(srv.t.app, chat, 'message.created', { n }));
    await allRelayed(srv.t.app);

    await pruneAfter(31);
    expect(await deletedThrough(srv.t.app.ctx.db, chat.accountId)).toBe(missed[2].id);
    const kept = await emit(srv.t.app, chat, 'message.created', { n: 4 });
    await allRelayed(srv.t.app);

    const again = await open(agent.token, cursor);
    expect(again.frames).toEqual([
      { type: 'reset', data: { reason: 'cursor_expired' } },
      { type: 'ready', data: { cursor: kept.id } },
    ]);
    const live = await emit(srv.t.app, chat, 'message.created', { n: 5 });
    await again.until((c) => c.frames.length === 3);
    expect(again.frames[2]).toMatchObject({ type: 'message.created', cursor: live.id, data: { n: 5 } });
  });

  it('replays exactly as before from a cursor at the deletion mark or inside retention', async () => {
    const chat = await seedChat(srv.t.app);
    const agent = await seedAgent(srv.t.app, { tokenTtlSeconds: TOKEN_TTL_SECONDS });
    const mark = await deletedThrough(srv.t.app.ctx.db, chat.accountId);
    expect(mark).toBeGreaterThan(0);
    const atMark = await open(agent.token, mark);
    expect(atMark.frames.map((f) => f.type)).not.toContain('reset');
    expect(atMark.events().every((f) => (f.cursor as number) > mark)).toBe(true);

    const inside = atMark.lastCursor();
    await atMark.close();
    const missed = [await emit(srv.t.app, chat, 'message.created', { n: 1 }), await emit(srv.t.app, chat, 'message.created', { n: 2 })];
    await allRelayed(srv.t.app);
    const again = await open(agent.token, inside);
    expect(again.frames.map((f) => f.type)).toEqual(['message.created', 'message.created', 'ready']);
    expect(again.events().map((f) => f.cursor)).toEqual(missed.map((m) => m.id));
  });

  it('starts a socket without a cursor at the mark when every event of the account is gone, and does not reset it later', async () => {
    await allRelayed(srv.t.app);
    await pruneAfter(31);
    const { count } = await srv.t.app.ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
    const mark = await deletedThrough(srv.t.app.ctx.db, srv.t.app.ctx.defaultAccountId);
    const fresh = await open(srv.t.adminToken);
    expect(fresh.frames).toEqual([{ type: 'ready', data: { cursor: mark } }]);
    await fresh.close();
    const back = await open(srv.t.adminToken, mark);
    expect(back.frames).toEqual([{ type: 'ready', data: { cursor: mark } }]);
  });
});
