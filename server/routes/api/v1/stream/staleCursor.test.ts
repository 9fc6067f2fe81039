/**
 * The agent stream after retention deleted events: a cursor older than what
 * is kept gets {"type":"reset"} before ready and no replay (the client
 * reloads), then live events; a cursor at or past the account's deletion
 * mark replays exactly as before; a socket without a cursor starts at the
 * mark even when every event of the account is gone. Time is moved through
 * the app's clock for the retention pass only (tokens are checked with it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, emit, listen, seedAgent, seedChat, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { deletedThrough } from '../../../../events/eventMarks.js';
import { Retention } from '../../../../retention/worker.js';

const DAY = 24 * 60 * 60 * 1000;
const TOKEN_TTL_SECONDS = 365 * 24 * 60 * 60;

describe('agent stream and retention', () => {
  let t: TestApp;
  let base: string;
  let offset = 0;
  const clients: StreamClient[] = [];
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(base, token, cursor));
    clients.push(c);
    return c;
  };
  /** Runs a retention pass as if `days` had passed. */
  const pruneAfter = async (days: number): Promise<void> => {
    offset = days * DAY;
    try {
      await new Retention(t.app.ctx).pass();
    } finally {
      offset = 0;
    }
  };

  beforeAll(async () => {
    // Tokens outlive the jump: the retention pass also deletes expired login tokens.
    t = await createTestApp({ clock: () => Date.now() + offset, env: { TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) } });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('answers a cursor older than the kept events with reset before ready, no replay, then live frames', async () => {
    const chat = await seedChat(t.app);
    const agent = await seedAgent(t.app, { tokenTtlSeconds: TOKEN_TTL_SECONDS });
    const first = await open(agent.token);
    await emit(t.app, chat, 'message.created', { n: 0 });
    await first.until((c) => c.events().length === 1);
    const cursor = first.lastCursor();
    await first.close();
    const missed = [];
    for (let n = 1; n <= 3; n++) missed.push(await emit(t.app, chat, 'message.created', { n }));
    await allRelayed(t.app);

    await pruneAfter(31);
    expect(await deletedThrough(t.app.ctx.db, chat.accountId)).toBe(missed[2].id);
    const kept = await emit(t.app, chat, 'message.created', { n: 4 });
    await allRelayed(t.app);

    const again = await open(agent.token, cursor);
    expect(again.frames).toEqual([
      { type: 'reset', data: { reason: 'cursor_expired' } },
      { type: 'ready', data: { cursor: kept.id } },
    ]);
    const live = await emit(t.app, chat, 'message.created', { n: 5 });
    await again.until((c) => c.frames.length === 3);
    expect(again.frames[2]).toMatchObject({ type: 'message.created', cursor: live.id, data: { n: 5 } });
  });

  it('replays exactly as before from a cursor at the deletion mark or inside retention', async () => {
    const chat = await seedChat(t.app);
    const agent = await seedAgent(t.app, { tokenTtlSeconds: TOKEN_TTL_SECONDS });
    const mark = await deletedThrough(t.app.ctx.db, chat.accountId);
    expect(mark).toBeGreaterThan(0);
    const atMark = await open(agent.token, mark);
    expect(atMark.frames.map((f) => f.type)).not.toContain('reset');
    expect(atMark.events().every((f) => (f.cursor as number) > mark)).toBe(true);

    const inside = atMark.lastCursor();
    await atMark.close();
    const missed = [await emit(t.app, chat, 'message.created', { n: 1 }), await emit(t.app, chat, 'message.created', { n: 2 })];
    await allRelayed(t.app);
    const again = await open(agent.token, inside);
    expect(again.frames.map((f) => f.type)).toEqual(['message.created', 'message.created', 'ready']);
    expect(again.events().map((f) => f.cursor)).toEqual(missed.map((m) => m.id));
  });

  it('starts a socket without a cursor at the mark when every event of the account is gone, and does not reset it later', async () => {
    await allRelayed(t.app);
    await pruneAfter(31);
    const { count } = await t.app.ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
    const mark = await deletedThrough(t.app.ctx.db, t.app.ctx.defaultAccountId);
    const fresh = await open(t.adminToken);
    expect(fresh.frames).toEqual([{ type: 'ready', data: { cursor: mark } }]);
    await fresh.close();
    const back = await open(t.adminToken, mark);
    expect(back.frames).toEqual([{ type: 'ready', data: { cursor: mark } }]);
  });
});
