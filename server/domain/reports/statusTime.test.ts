/**
 * Each status change knows when the agent's next one came (`ended_at`,
 * migration 026_status_ends): set by PUT /me/status on the row it ends (and
 * only on that agent's), filled by the migration for rows stored before it
 * (ties in time ordered by id), and summed by statusTimes, clipped to the
 * range and to now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { fillStatusEnds } from '../../db/migrations/026_status_ends.js';
import { statusTimes } from './statusTime.js';

describe('status changes and their ends', () => {
  let t: TestApp;
  const rows = (agentId: number) =>
    t.app.ctx.db.selectFrom('agent_status_changes').select(['status', 'at', 'ended_at']).where('agent_id', '=', agentId).orderBy('at').orderBy('id').execute();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('PUT /me/status ends the agent’s open row and opens a new one, leaving other agents’ rows alone', async () => {
    const a = await addAgent(t, { email: 'ends-a@example.com' });
    const b = await addAgent(t, { email: 'ends-b@example.com' });
    const status = (token: string, s: string) => t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(token), payload: { status: s } });
    expect((await status(b.token, 'online')).statusCode).toBe(200);
    await status(a.token, 'online');
    await status(a.token, 'away');
    await status(a.token, 'away'); // not a change: no row
    await status(a.token, 'offline');
    const mine = await rows(a.id);
    expect(mine.map((r) => r.status)).toEqual(['online', 'away', 'offline']);
    expect(mine[0].ended_at).toBe(mine[1].at);
    expect(mine[1].ended_at).toBe(mine[2].at);
    expect(mine[2].ended_at).toBeNull();
    expect((await rows(b.id)).map((r) => r.ended_at)).toEqual([null]);
  });

  it('the migration fills the ends of stored rows (ties by id), and statusTimes sums them within the range', async () => {
    const c = await addAgent(t, { email: 'ends-c@example.com' });
    const account = (await t.app.ctx.db.selectFrom('agents').select('account_id').where('id', '=', c.id).executeTakeFirstOrThrow()).account_id;
    const H = 3_600_000;
    const base = Date.UTC(2026, 0, 5);
    const insert = (status: 'online' | 'away' | 'offline', at: number) =>
      t.app.ctx.db.insertInto('agent_status_changes').values({ account_id: account, agent_id: c.id, status, at, ended_at: null }).execute();
    await insert('online', base + 8 * H);
    await insert('away', base + 12 * H);
    await insert('online', base + 12 * H); // same instant: after the away row by id
    await insert('offline', base + 17 * H);
    await insert('online', base + 30 * H);
    await fillStatusEnds(t.app.ctx.db);
    expect((await rows(c.id)).map((r) => [r.status, r.ended_at])).toEqual([
      ['online', base + 12 * H],
      ['away', base + 12 * H],
      ['online', base + 17 * H],
      ['offline', base + 30 * H],
      ['online', null],
    ]);
    // 10:00 to 32:00 (now at 31:00): online 10–12 and 12–17, then 30–31 (now); away 0 s.
    const times = await statusTimes(t.app.ctx.db, account, [c.id], base + 10 * H, base + 32 * H, base + 31 * H);
    expect(times.get(c.id)).toEqual({ online_ms: 8 * H, away_ms: 0 });
    // A range ending inside a status clips it: 09:00 to 16:00.
    expect((await statusTimes(t.app.ctx.db, account, [c.id], base + 9 * H, base + 16 * H, base + 40 * H)).get(c.id)).toEqual({ online_ms: 7 * H, away_ms: 0 });
  });
});
