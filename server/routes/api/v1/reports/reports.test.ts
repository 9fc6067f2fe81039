/**
 * /api/v1/reports: every figure against values computed by hand from a small
 * data set made through the real API (widget visitors, agents accepting,
 * replying, finishing, ratings, an offline message, status changes) on a
 * clock that crosses the end of daylight saving in New York (2026-11-01,
 * 06:00 UTC: 01:00–02:00 local happens twice, the local day has 25 hours).
 *
 * The data set (UTC; local New York in brackets):
 *   c7 widget A 10-30 12:00 [08:00 EDT Fri]  finished after 5 min, no reply → missed (previous period)
 *   c1 widget A 10-31 13:00 [09:00 EDT Sat]  admin accepts +30 s, replies +40 s, finishes +10 min
 *   c2 widget A 10-31 13:20 [09:20 EDT Sat]  finished after 5 min, no reply → missed
 *   c3 widget B 11-01 05:30 [01:30 EDT Sun]  Bea replies (accepts) +2 min, rated negative, finished +20 min
 *   c4 widget B 11-01 06:30 [01:30 EST Sun]  Bea replies +10 s, rated positive, finished +30 min
 *   c5 widget A 11-02 04:30 [23:30 EST Sun]  pending (started, nothing else)
 *   c6 widget A 11-02 05:30 [00:30 EST Mon]  outside the range
 *   offline message widget B 11-01 12:00; Bea online 05:00, away 06:00, online 06:15, offline 07:00 (11-01)
 *
 * Everything runs twice: with the account's zone UTC (New York reports read
 * the hourly rollups) and with it New York before the first chat (they read
 * the daily rollup, kept by the relay as the chats change, migration 023);
 * the second also rebuilds that rollup from the hours, a day per step across
 * the DST change, and finds the same rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, setStatus, startSession, visitorCall, type TestWidget } from '../../../../../test/helpers/widget.js';
import { binOf } from '../../../../domain/reports/bins.js';
import { factsOf } from '../../../../domain/reports/chatContribution.js';
import { BIN_COLUMNS, MEASURES, buildDailyStep, dayOf } from '../../../../domain/reports/dailyRollup.js';
import { buildDailyRollups } from '../../../../domain/reports/dailyRollupWorker.js';
import { statusTimes } from '../../../../domain/reports/statusTime.js';

const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe.each(['hours', 'days'] as const)('/api/v1/reports (account zone %s)', (mode) => {
  let t: TestApp;
  let now = at('2026-10-29T00:00:00Z');
  let bea: { id: number; token: string };
  let adminId: number;
  let a: TestWidget;
  let b: TestWidget;
  const chats: Record<string, number> = {};

  const get = async (path: string, token = t.adminToken) => t.app.inject({ method: 'GET', url: `/api/v1/reports/${path}`, headers: bearer(token) });
  const report = async (path: string, token = t.adminToken) => {
    const res = await get(path, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const NY = 'timezone=America/New_York';
  const RANGE = `from=2026-10-31&to=2026-11-01&${NY}`;

  const call = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown> = {}, token = t.adminToken) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };

  /** A new visitor on widget w writes at `start`; returns the chat id and the visitor's token. */
  async function visitorChat(name: string, w: TestWidget, start: string): Promise<string> {
    now = at(start);
    const session = await startSession(t, w.widget_id);
    chats[name] = (await sendText(t, w.widget_id, session.visitor_token, `hello from ${name}`)).chat_id;
    return session.visitor_token;
  }
  const later = (ms: number) => (now += ms);

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    adminId = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json().id;
    bea = await addAgent(t, { email: 'bea@example.com', name: 'Bea' });
    a = await createWidget(t, { name: 'Site A' });
    b = await createWidget(t, { name: 'Site B' });
    if (mode === 'days') {
      await call('PUT', '/api/v1/settings', { callback: { timezone: 'America/New_York' } });
      await buildDailyRollups(t.app.ctx.store);
    }

    await visitorChat('c7', a, '2026-10-30T12:00:00Z');
    later(5 * MIN);
    await call('POST', `/api/v1/chats/${chats.c7}/finish`);

    await visitorChat('c1', a, '2026-10-31T13:00:00Z');
    later(30_000);
    await call('POST', `/api/v1/chats/${chats.c1}/accept`);
    later(10_000);
    await agentReply(t, chats.c1, 'Hi!');
    now = at('2026-10-31T13:10:00Z');
    await call('POST', `/api/v1/chats/${chats.c1}/finish`);

    await visitorChat('c2', a, '2026-10-31T13:20:00Z');
    later(5 * MIN);
    await call('POST', `/api/v1/chats/${chats.c2}/finish`);

    now = at('2026-11-01T05:00:00Z');
    await setStatus(t, 'online', bea.token);
    const v3 = await visitorChat('c3', b, '2026-11-01T05:30:00Z');
    later(2 * MIN);
    await agentReply(t, chats.c3, 'Hello', bea.token);
    later(MIN);
    expect((await visitorCall(t, b.widget_id, v3, 'rate', { rate: 'negative' })).statusCode).toBe(204);
    now = at('2026-11-01T05:50:00Z');
    await call('POST', `/api/v1/chats/${chats.c3}/finish`, {}, bea.token);

    now = at('2026-11-01T06:00:00Z');
    await setStatus(t, 'away', bea.token);
    now = at('2026-11-01T06:15:00Z');
    await setStatus(t, 'online', bea.token);
    const v4 = await visitorChat('c4', b, '2026-11-01T06:30:00Z');
    later(10_000);
    await agentReply(t, chats.c4, 'Hello again', bea.token);
    later(MIN);
    expect((await visitorCall(t, b.widget_id, v4, 'rate', { rate: 'positive' })).statusCode).toBe(204);
    now = at('2026-11-01T07:00:00Z');
    await setStatus(t, 'offline', bea.token);
    await call('POST', `/api/v1/chats/${chats.c4}/finish`, {}, bea.token);

    now = at('2026-11-01T12:00:00Z');
    const v = await startSession(t, b.widget_id);
    expect((await visitorCall(t, b.widget_id, v.visitor_token, 'offline', { message: 'Call me', email: 'v@example.com' })).statusCode).toBe(200);

    await visitorChat('c5', a, '2026-11-02T04:30:00Z');
    await visitorChat('c6', a, '2026-11-02T05:30:00Z');
    now = at('2026-11-03T00:00:00Z');

    // The relay (a worker) folds the events into the rollups: wait until it has passed them all.
    const db = t.app.ctx.db;
    await waitFor(async () => {
      const last = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const cursor = await db.selectFrom('relay_cursor').select('relayed_through').executeTakeFirst();
      return Number(cursor?.relayed_through ?? 0) >= Number(last?.id ?? 0);
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it(`reads New York days from the ${mode === 'days' ? 'daily' : 'hourly'} rollup`, async () => {
    const zone = await t.app.ctx.db.selectFrom('report_daily_zones').selectAll().executeTakeFirstOrThrow();
    expect([zone.timezone, zone.built_through]).toEqual([mode === 'days' ? 'America/New_York' : 'UTC', null]);
    // Kept in the account's zone whatever it is: UTC reports read days in both modes.
    const daily = await t.app.ctx.db
      .selectFrom('report_daily')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(daily.n)).toBeGreaterThan(0);
  });

  it('counts chats per local day across the DST change, with totals, previous period and channels', async () => {
    const r = await report(`chats?${RANGE}`);
    expect(r.range).toEqual({
      from: '2026-10-31',
      to: '2026-11-01',
      timezone: 'America/New_York',
      interval: 'hour',
      channel_id: null,
      department_id: null,
      agent_id: null,
      previous_from: '2026-10-29',
      previous_to: '2026-10-30',
    });
    const day = await report(`chats?${RANGE}&interval=day`);
    expect(day.series).toEqual([
      {
        key: expect.any(Number),
        label: '2026-10-31',
        start: '2026-10-31T04:00:00.000Z',
        started: 2,
        accepted: 1,
        missed: 1,
        offline_messages: 0,
        callbacks: 0,
      },
      {
        key: expect.any(Number),
        label: '2026-11-01',
        start: '2026-11-01T04:00:00.000Z',
        started: 3,
        accepted: 2,
        missed: 0,
        offline_messages: 1,
        callbacks: 0,
      },
    ]);
    expect(day.totals).toEqual({ started: 5, accepted: 3, missed: 1, offline_messages: 1, callbacks: 0 });
    expect(day.previous).toEqual({ started: 1, accepted: 0, missed: 1, offline_messages: 0, callbacks: 0 });
    expect(day.by_channel).toEqual([
      { channel_id: a.id, started: 3, accepted: 1, missed: 1, offline_messages: 0, callbacks: 0 },
      { channel_id: b.id, started: 2, accepted: 2, missed: 0, offline_messages: 1, callbacks: 0 },
    ]);
  });

  it('has 49 hourly buckets over the two days, the repeated local hour twice', async () => {
    const r = await report(`chats?${RANGE}&interval=hour`);
    expect(r.series).toHaveLength(24 + 25);
    const twice = r.series.filter((s: { label: string }) => s.label === '2026-11-01T01:00');
    expect(twice.map((s: { start: string; started: number }) => [s.start, s.started])).toEqual([
      ['2026-11-01T05:00:00.000Z', 1],
      ['2026-11-01T06:00:00.000Z', 1],
    ]);
    const nonZero = r.series.filter((s: { started: number; offline_messages: number }) => s.started + s.offline_messages > 0);
    expect(nonZero.map((s: { label: string; started: number }) => [s.label, s.started])).toEqual([
      ['2026-10-31T09:00', 2],
      ['2026-11-01T01:00', 1],
      ['2026-11-01T01:00', 1],
      ['2026-11-01T07:00', 0],
      ['2026-11-01T23:00', 1],
    ]);
  });

  it('reads first response and duration: averages exact, median and p90 from the bins', async () => {
    const r = await report(`response-times?${RANGE}&interval=day`);
    // First responses 40 s (bin 30–45), 120 s (120–180), 10 s (10–15): rank 2 of 3 → 45, rank 3 → 180.
    expect(r.totals.first_response).toEqual({ count: 3, average_s: 56.7, median_s: 45, p90_s: 180 });
    // Durations 600 s (600–900), 300 s (300–420), 1200 s (1200–1800), 1800 s (1800–2700): rank 2 of 4 → 900, rank 4 → 2700.
    expect(r.totals.duration).toEqual({ count: 4, average_s: 975, median_s: 900, p90_s: 2700 });
    expect(r.series[0].first_response).toEqual({ count: 1, average_s: 40, median_s: 45, p90_s: 45 });
    expect(r.series[1].first_response).toEqual({ count: 2, average_s: 65, median_s: 15, p90_s: 180 });
    expect(r.previous.duration).toEqual({ count: 1, average_s: 300, median_s: 420, p90_s: 420 });
    expect(r.previous.first_response).toEqual({ count: 0, average_s: null, median_s: null, p90_s: null });
  });

  it('counts ratings per day and per agent', async () => {
    const r = await report(`ratings?${RANGE}&interval=day`);
    expect(r.series.map((s: { positive: number; negative: number; positive_share: number | null }) => [s.positive, s.negative, s.positive_share])).toEqual([
      [0, 0, null],
      [1, 1, 0.5],
    ]);
    expect(r.totals).toEqual({ positive: 1, negative: 1, positive_share: 0.5 });
    expect(r.previous).toEqual({ positive: 0, negative: 0, positive_share: null });
    expect(r.by_agent).toEqual([{ agent_id: bea.id, positive: 1, negative: 1, positive_share: 0.5 }]);
  });

  it('gives per-agent figures: chats handled, first response, Online/Away time, concurrency, ratings', async () => {
    const r = await report(`agents?${RANGE}`);
    const byId = Object.fromEntries(r.agents.map((x: { agent_id: number }) => [x.agent_id, x]));
    expect(byId[bea.id]).toEqual({
      agent_id: bea.id,
      name: 'Bea',
      chats_handled: 2,
      first_response: { count: 2, average_s: 65, median_s: 15, p90_s: 180 },
      online_s: 3600 + 2700,
      away_s: 900,
      // In chats 18 min (c3) + 29 min 50 s (c4) = 2870 s over 6300 s Online.
      average_concurrency: 0.46,
      positive: 1,
      negative: 1,
      positive_share: 0.5,
    });
    expect(byId[adminId]).toMatchObject({
      chats_handled: 1,
      first_response: { count: 1, average_s: 40, median_s: 45, p90_s: 45 },
      online_s: 0,
      away_s: 0,
      average_concurrency: null,
    });
  });

  it('counts the status in force when a range starts, and stops at its end', async () => {
    const account = (await t.app.ctx.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
    // Bea: online 05:00, away 06:00, online 06:15, offline 07:00; the range 05:30–06:45 opens Online.
    const times = await statusTimes(t.app.ctx.db, account, [bea.id, adminId], at('2026-11-01T05:30:00Z'), at('2026-11-01T06:45:00Z'), now);
    expect(times.get(bea.id)).toEqual({ online_ms: 60 * MIN, away_ms: 15 * MIN });
    expect(times.get(adminId)).toEqual({ online_ms: 0, away_ms: 0 });
    // Still online at "now" (06:40): counted up to now, not to the end of the range.
    expect(
      (await statusTimes(t.app.ctx.db, account, [bea.id], at('2026-11-01T06:20:00Z'), at('2026-11-01T08:00:00Z'), at('2026-11-01T06:40:00Z'))).get(bea.id),
    ).toEqual({
      online_ms: 20 * MIN,
      away_ms: 0,
    });
  });

  it('puts new chats on a weekday × local hour grid', async () => {
    const r = await report(`busiest-hours?${RANGE}`);
    expect(r.total).toBe(5);
    expect(r.max).toBe(2);
    const cells: [number, number, number][] = [];
    r.grid.forEach((row: number[], w: number) => row.forEach((n, h) => n > 0 && cells.push([w, h, n])));
    // Saturday 09:00 twice; Sunday 01:00 twice (EDT and EST); Sunday 23:00 once.
    expect(cells).toEqual([
      [5, 9, 2],
      [6, 1, 2],
      [6, 23, 1],
    ]);
  });

  it('follows the channel, department and agent filters', async () => {
    expect((await report(`chats?${RANGE}&interval=day&channel_id=${b.id}`)).totals).toEqual({
      started: 2,
      accepted: 2,
      missed: 0,
      offline_messages: 1,
      callbacks: 0,
    });
    expect((await report(`chats?${RANGE}&interval=day&agent_id=${bea.id}`)).totals).toEqual({
      started: 2,
      accepted: 2,
      missed: 0,
      offline_messages: 0,
      callbacks: 0,
    });
    expect((await report(`chats?${RANGE}&interval=day&department_id=1`)).totals).toEqual({
      started: 0,
      accepted: 0,
      missed: 0,
      offline_messages: 0,
      callbacks: 0,
    });
    expect((await report(`response-times?${RANGE}&channel_id=${a.id}`)).totals.first_response).toEqual({ count: 1, average_s: 40, median_s: 45, p90_s: 45 });
    expect((await report(`busiest-hours?${RANGE}&agent_id=${adminId}`)).grid[5][9]).toBe(1);
  });

  it('uses the local days of another zone', async () => {
    // In UTC, 10-31 holds c1, c2; 11-01 holds c3, c4 (c5 is on 11-02).
    const r = await report('chats?from=2026-10-31&to=2026-11-01&timezone=UTC&interval=day');
    expect(r.series.map((s: { label: string; started: number }) => [s.label, s.started])).toEqual([
      ['2026-10-31', 2],
      ['2026-11-01', 2],
    ]);
  });

  it('shows an agent only its own figures', async () => {
    const mine = await report(`chats?${RANGE}&interval=day`, bea.token);
    expect(mine.range.agent_id).toBe(bea.id);
    expect(mine.totals).toEqual({ started: 2, accepted: 2, missed: 0, offline_messages: 0, callbacks: 0 });
    expect((await report(`agents?${RANGE}`, bea.token)).agents.map((x: { agent_id: number }) => x.agent_id)).toEqual([bea.id]);
    const other = await get(`chats?${RANGE}&agent_id=${adminId}`, bea.token);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('forbidden');
  });

  it('refuses bad queries with a clear 400', async () => {
    for (const q of [
      '',
      'from=2026-10-31',
      'from=2026-13-01&to=2026-13-02',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-11-02&to=2026-11-01',
      'from=2024-01-01&to=2026-01-01',
      'from=2026-01-01&to=2026-03-01&interval=hour',
      `${RANGE}&interval=week`,
      'from=2026-10-31&to=2026-11-01&timezone=Mars/Olympus',
      `${RANGE}&channel_id=abc`,
      `${RANGE}&agent_id=0`,
    ]) {
      const res = await get(`chats?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code, q).toBe('validation_failed');
    }
  });

  it('filters by two dimensions at once from the exact keys', async () => {
    const ids = (await report(`chats?${RANGE}`)).by_channel.map((c: { channel_id: number }) => c.channel_id);
    expect(ids).toEqual([a.id, b.id]);
    const pick = (r: { totals: { started: number; accepted: number; missed: number } }) => [r.totals.started, r.totals.accepted, r.totals.missed];
    expect(pick(await report(`chats?${RANGE}&channel_id=${a.id}&agent_id=${adminId}`))).toEqual([1, 1, 0]);
    expect(pick(await report(`chats?${RANGE}&channel_id=${b.id}&agent_id=${bea.id}`))).toEqual([2, 2, 0]);
    expect(pick(await report(`chats?${RANGE}&channel_id=${a.id}&agent_id=${bea.id}`))).toEqual([0, 0, 0]);
    // One filter reads the cube's rows: the same figures as the sum of the exact keys.
    expect(pick(await report(`chats?${RANGE}&channel_id=${a.id}`))).toEqual([3, 1, 1]);
    const agents = await report(`agents?${RANGE}&channel_id=${b.id}`);
    expect(agents.agents.map((x: { name: string; chats_handled: number }) => [x.name, x.chats_handled])).toEqual(expect.arrayContaining([['Bea', 2]]));
  });

  it('keeps the rollups equal to the chats as they are now', async () => {
    const db = t.app.ctx.db;
    const rows = await db.selectFrom('chats').selectAll().execute();
    const expected = new Map<string, number[]>();
    for (const chat of rows) {
      const f = factsOf(chat);
      // The exact key and the cube's four "all" (-1) rows (migration 015_reports_cube).
      for (const [c, d, a] of [
        [f.channel_id, f.department_id, f.agent_id],
        [-1, -1, -1],
        [f.channel_id, -1, -1],
        [-1, f.department_id, -1],
        [-1, -1, f.agent_id],
      ]) {
        const k = [f.hour, c, d, a].join('|');
        const e = expected.get(k) ?? [0, 0, 0, 0, 0, 0];
        const add = [1, f.accepted, f.missed, f.frt_ms ?? 0, f.dur_ms ?? 0, f.positive - f.negative];
        expected.set(
          k,
          e.map((v, i) => v + add[i]),
        );
      }
    }
    // A key a chat left (accepted: agent 0 → the agent) keeps a row of zeros.
    const stored = await db.selectFrom('report_hourly').selectAll().where('started', '<>', 0).execute();
    const actual = new Map(
      stored.map((r) => [
        [r.hour, r.channel_id, r.department_id, r.agent_id].join('|'),
        [r.started, r.accepted, r.missed, r.frt_sum_ms, r.dur_sum_ms, r.positive - r.negative].map(Number),
      ]),
    );
    expect(actual).toEqual(expected);
  });

  /** The daily rows the chats as they are now make (the exact key and the seven "all" combinations), none of zeros. */
  async function expectedDaily(zone: string): Promise<Map<string, number[]>> {
    const expected = new Map<string, number[]>();
    for (const chat of await t.app.ctx.db.selectFrom('chats').selectAll().execute()) {
      const f = factsOf(chat);
      const add: Record<string, number> = {
        started: 1,
        accepted: f.accepted,
        finished: f.finished,
        missed: f.missed,
        frt_count: f.frt_ms === null ? 0 : 1,
        frt_sum_ms: f.frt_ms ?? 0,
        dur_count: f.dur_ms === null ? 0 : 1,
        dur_sum_ms: f.dur_ms ?? 0,
        handled_ms: f.handled_ms,
        positive: f.positive,
        negative: f.negative,
      };
      if (f.frt_ms !== null) add[`frt_${binOf(f.frt_ms)}`] = 1;
      if (f.dur_ms !== null) add[`dur_${binOf(f.dur_ms)}`] = 1;
      for (let cut = 0; cut < 8; cut++) {
        const dims = [f.channel_id, f.department_id, f.agent_id].map((v, i) => (cut & (1 << i) ? -1 : v));
        const k = [dayOf(zone, f.hour), ...dims].join('|');
        const e = expected.get(k) ?? [...MEASURES, ...BIN_COLUMNS].map(() => 0);
        expected.set(
          k,
          [...MEASURES, ...BIN_COLUMNS].map((c, i) => e[i] + (add[c] ?? 0)),
        );
      }
    }
    return expected;
  }
  async function storedDaily(): Promise<Map<string, number[]>> {
    const rows = await t.app.ctx.db.selectFrom('report_daily').selectAll().where('started', '<>', 0).execute();
    return new Map(
      rows.map((r) => [
        [r.day, r.channel_id, r.department_id, r.agent_id].join('|'),
        [...MEASURES, ...BIN_COLUMNS].map((c) => Number((r as Record<string, unknown>)[c])),
      ]),
    );
  }

  it.runIf(mode === 'days')('keeps the daily rollup equal to the chats as they are now, and rebuilds the same rows from the hours', async () => {
    const expected = await expectedDaily('America/New_York');
    // c7 … c6 fall on four New York days: 10-30 (c7), 10-31 (c1, c2), 11-01 (c3, c4 and c5 at 23:30, a 25-hour day), 11-02 (c6).
    expect(new Set([...expected.keys()].map((k) => k.split('|')[0])).size).toBe(4);
    expect(await storedDaily()).toEqual(expected);
    const before = await report(`response-times?${RANGE}&interval=day`);
    const db = t.app.ctx.db;
    const accountId = (await db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
    const step = (zone: string) => db.transaction().execute((tx) => buildDailyStep(tx, accountId, zone, 1));
    // Another zone, then New York again, one local day per step (the 25-hour day included).
    let steps = 0;
    while (!(await step('Asia/Tokyo'))) steps += 1;
    expect(await storedDaily()).toEqual(await expectedDaily('Asia/Tokyo'));
    while (!(await step('America/New_York'))) steps += 1;
    expect(steps).toBeGreaterThan(6);
    expect(await storedDaily()).toEqual(expected);
    expect(await report(`response-times?${RANGE}&interval=day`)).toEqual(before);
  });
});
