import type { KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel } from '../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import type { Db } from '../db/database.js';
import type { Agent } from '../db/schema.js';
import { ChannelRules } from './channelVisibility.js';
import type { StreamEvent } from './hub.js';

/**
 * The stream's channel rule, shared by an agent's sockets: one read however
 * many sockets ask, read again after a change, never used older than 5 s.
 */
describe('ChannelVisibility', () => {
  let t: TestApp;
  let agent: Agent;
  let mine: number;
  let other: number;
  let reads = 0;
  let db: Db;
  let rules: ChannelRules;

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        reads++;
        return Promise.resolve(args.result);
      },
    };
    db = t.app.ctx.db.withPlugin(counter);
    rules = new ChannelRules(db);
    const { id } = await addAgent(t, { email: 'watcher@example.com' });
    agent = await t.app.ctx.db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    mine = (await createChatChannel(t, { name: 'mine' })).id;
    other = (await createChatChannel(t, { name: 'other' })).id;
    const adminId = (await t.app.ctx.db.selectFrom('agents').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow()).id;
    await t.app.ctx.db
      .insertInto('channel_agents')
      .values([
        { account_id: agent.account_id, channel_id: mine, agent_id: agent.id },
        { account_id: agent.account_id, channel_id: other, agent_id: adminId },
      ])
      .execute();
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await t.close();
  });

  const eventIn = (channelId: number): StreamEvent =>
    ({ id: 1, account_id: agent.account_id, type: 'typing', chat_id: 1, channel_id: channelId, seq: 1, created_at: 0, data: {} }) as unknown as StreamEvent;

  it("reads one agent's rule once for all its sockets, even when they ask at the same moment", async () => {
    const sockets = Array.from({ length: 50 }, () => rules.for(agent));
    reads = 0;
    const shown = await Promise.all(sockets.map((v) => v.allows(eventIn(mine))));
    expect(shown.every(Boolean)).toBe(true);
    expect(reads).toBe(2); // the agent's row, its channels
    expect(await Promise.all(sockets.map((v) => v.allows(eventIn(other))))).toEqual(sockets.map(() => false));
    expect(reads).toBe(2); // a channel it does not work, just read: no new read (at most once a second)
    sockets.forEach((v) => v.release());
  });

  it('reads again after an invalidate, and shows what the change allows', async () => {
    const a = rules.for(agent);
    const b = rules.for(agent);
    expect(await b.allows(eventIn(other))).toBe(false);
    await t.app.ctx.db.insertInto('channel_agents').values({ account_id: agent.account_id, channel_id: other, agent_id: agent.id }).execute();
    a.invalidate(); // an agent.updated seen by one socket: every socket of the agent reads anew
    reads = 0;
    expect(await b.allows(eventIn(other))).toBe(true);
    expect(reads).toBe(2);
    await t.app.ctx.db.deleteFrom('channel_agents').where('channel_id', '=', other).where('agent_id', '=', agent.id).execute();
    a.invalidate();
    expect(await a.allows(eventIn(other))).toBe(false);
    a.release();
    b.release();
  });

  it('an invalidate during a read makes the next event read once more', async () => {
    const v = rules.for(agent);
    v.invalidate();
    const first = v.allows(eventIn(mine));
    await t.app.ctx.db.insertInto('channel_agents').values({ account_id: agent.account_id, channel_id: other, agent_id: agent.id }).execute();
    v.invalidate(); // the read in flight may have missed the new row
    expect(await first).toBe(true);
    expect(await v.allows(eventIn(other))).toBe(true);
    await t.app.ctx.db.deleteFrom('channel_agents').where('channel_id', '=', other).where('agent_id', '=', agent.id).execute();
    v.release();
  });

  it('reads ahead in the background past half its age, and never uses a rule older than 5 s', async () => {
    const grant = () => t.app.ctx.db.insertInto('channel_agents').values({ account_id: agent.account_id, channel_id: other, agent_id: agent.id }).execute();
    const revoke = () => t.app.ctx.db.deleteFrom('channel_agents').where('channel_id', '=', other).where('agent_id', '=', agent.id).execute();
    await grant();
    const v = rules.for(agent);
    try {
      const start = Date.now();
      expect(await v.allows(eventIn(other))).toBe(true);
      reads = 0;
      const now = vi.spyOn(Date, 'now');
      now.mockReturnValue(start + 1000);
      expect(await v.allows(eventIn(other))).toBe(true);
      expect(reads).toBe(0);
      // Past 2.5 s: answered from the rule at once, read again meanwhile.
      await revoke();
      now.mockReturnValue(start + 3000);
      expect(await v.allows(eventIn(other))).toBe(true);
      await vi.waitFor(() => expect(reads).toBe(2));
      expect(await v.allows(eventIn(other))).toBe(false);
      // A channel it did not know, a second later: read at once.
      await grant();
      now.mockReturnValue(start + 4100);
      expect(await v.allows(eventIn(other))).toBe(true);
      // Past 5 s without an event: the event waits for the read.
      await revoke();
      now.mockReturnValue(start + 4100 + 5001);
      expect(await v.allows(eventIn(other))).toBe(false);
    } finally {
      v.release();
    }
  });

  it('a channel change seen by every socket of the agent is read once, and shown by the rule before or after it', async () => {
    const changed = (id: number, channelId: number): StreamEvent =>
      ({
        id,
        account_id: agent.account_id,
        type: 'channel.changed',
        chat_id: null,
        channel_id: channelId,
        seq: null,
        created_at: 0,
        data: { channel_id: channelId, change: 'updated' },
      }) as unknown as StreamEvent;
    const sockets = Array.from({ length: 20 }, () => rules.for(agent));
    const adminId = (await t.app.ctx.db.selectFrom('agents').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow()).id;
    // A colleague works `mine` too, so it stays restricted (not everyone's) without the agent.
    await t.app.ctx.db.insertInto('channel_agents').values({ account_id: agent.account_id, channel_id: mine, agent_id: adminId }).execute();
    try {
      expect(await sockets[0].allows(eventIn(mine))).toBe(true);
      // The agent is removed from `mine`: every socket sees the change, one read serves them all, all are told.
      await t.app.ctx.db.deleteFrom('channel_agents').where('channel_id', '=', mine).where('agent_id', '=', agent.id).execute();
      reads = 0;
      expect(await Promise.all(sockets.map((v) => v.channelChanged(changed(5000, mine), mine)))).toEqual(sockets.map(() => true));
      expect(reads).toBe(2);
      expect(await Promise.all(sockets.map((v) => v.allows(eventIn(mine))))).toEqual(sockets.map(() => false));
      // A change of a channel it neither worked nor works: read again, not shown.
      reads = 0;
      expect(await Promise.all(sockets.map((v) => v.channelChanged(changed(5001, other), other)))).toEqual(sockets.map(() => false));
      expect(reads).toBe(2);
      // Added back: shown, and its chats with it.
      await t.app.ctx.db.insertInto('channel_agents').values({ account_id: agent.account_id, channel_id: mine, agent_id: agent.id }).execute();
      expect(await Promise.all(sockets.map((v) => v.channelChanged(changed(5002, mine), mine)))).toEqual(sockets.map(() => true));
      expect(await sockets[7].allows(eventIn(mine))).toBe(true);
    } finally {
      sockets.forEach((v) => v.release());
      await t.app.ctx.db.deleteFrom('channel_agents').where('channel_id', '=', mine).where('agent_id', '=', adminId).execute();
    }
  });

  it('drops the rule with the last socket of the agent', async () => {
    const a = rules.for(agent);
    await a.allows(eventIn(mine));
    a.release();
    a.release(); // twice is once
    const b = rules.for(agent);
    reads = 0;
    await b.allows(eventIn(mine));
    expect(reads).toBe(2);
    b.release();
  });
});
