/**
 * Report response times on a year of a busy account (issue 22). A real
 * server on a fresh store; 4 widgets, 4 departments and 20 agents made
 * through the API; then, with bulk SQL (generate_series on PostgreSQL, a
 * recursive CTE on SQLite), everything the reports read for two years of
 * BENCH_REPORT_CHATS (1,000,000) chats a year (the previous period of a
 * year-long report is real too):
 *
 * - `report_hourly`: per UTC hour, ROWS_PER_HOUR keys (channel × department
 *   × accepting agent) carrying the chats started in that hour and their
 *   sums (accepted, missed, first response, duration, handled time, ratings);
 * - `report_hist`: per key, a first-response and a duration bin;
 * - the cube's "all" rows of both (migration 015_reports_cube), summed from
 *   those keys by the migration's own SQL;
 * - offline messages, callback requests, and agents' status changes
 *   (4 a working day each);
 * - the daily rollup in the account's zone (migration 023): the account's
 *   zone is then changed through the API, and the server's own worker
 *   rebuilds it from those hours (as for any change of zone; the relay's
 *   additions give the same rows: server/routes/api/v1/reports/reports.test.ts),
 *   timed apart.
 *
 * Messages never reach the reports (a chat's first agent reply is in its
 * first-response sum), so 10,000,000 messages add nothing to these tables:
 * the figures hold for any number of messages. Chats and messages themselves
 * are not written (no report reads them).
 *
 * Then every report endpoint is asked, over HTTP with an admin token, for
 * ranges of a day (hourly), a week, 31 days hourly, 90 days and a year,
 * unfiltered and with a channel and an agent filter, in the account's zone
 * (Europe/Berlin): RUNS times each, the first run reported apart (cold
 * caches). Goal: ≤ 500 ms each. And a year in another zone (hours only:
 * the API's `timezone` other than the account's), for the record.
 */
import { sql } from 'kysely';
import { openStore } from '../server/db/database.js';
import { buildCubeRows } from '../server/db/migrations/015_reports_cube.js';
import { fillStatusEnds } from '../server/db/migrations/026_status_ends.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { adminToken, cleanup, json, PG_URL, startParley, type Db } from './lib/server.js';

const CHATS_PER_YEAR = Number(process.env.BENCH_REPORT_CHATS ?? 1_000_000);
const YEARS = 2;
const HOURS = YEARS * 365 * 24;
/** Keys per hour: each carries 1 or 2 chats (every 7th: 2), about CHATS_PER_YEAR a year. */
const ROWS_PER_HOUR = Math.max(1, Math.round(CHATS_PER_YEAR / (365 * 24) / (8 / 7)));
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 5);
const GOAL_MS = 500;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The account's zone; OTHER_ZONE is asked for once, to show the hourly path. */
const ZONE = 'Europe/Berlin';
const OTHER_ZONE = 'America/New_York';
const OTHER = '365 days, another zone';

const ENDPOINTS = ['chats', 'response-times', 'ratings', 'agents', 'busiest-hours'] as const;

interface Timing {
  range: string;
  filter: string;
  endpoint: string;
  coldMs: number;
  medianMs: number;
  maxMs: number;
}

interface ReportsResult {
  db: Db;
  seedSeconds: number;
  dailySeconds: number;
  rows: { hourly: number; hist: number; daily: number; offline: number; calls: number; status: number };
  timings: Timing[];
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const caseOf = (expr: string, ids: number[]) => `(case ${ids.map((id, i) => `when ${expr} = ${i} then ${id}`).join(' ')} end)`;

/** Rows h × i of the two sequences, in each dialect's bulk form. */
function grid(db: Db, hours: number, perHour: number): { with: string; from: string } {
  if (db === 'postgres') return { with: '', from: `generate_series(0, ${hours - 1}) as hs(h), generate_series(0, ${perHour - 1}) as xs(i)` };
  return {
    with: `with recursive hs(h) as (select 0 union all select h + 1 from hs where h < ${hours - 1}), xs(i) as (select 0 union all select i + 1 from xs where i < ${perHour - 1}) `,
    from: 'hs, xs',
  };
}

async function seed(
  db: Db,
  store: Awaited<ReturnType<typeof openStore>>,
  ids: { account: number; channels: number[]; departments: number[]; agents: number[] },
  start: number,
): Promise<void> {
  const d = store.db;
  const g = grid(db, HOURS, ROWS_PER_HOUR);
  const nC = ids.channels.length;
  const nD = ids.departments.length + 1;
  const nA = ids.agents.length + 1;
  // Key i of an hour: channel i % nC, department (i / nC) % nD (0: none), agent (i / (nC·nD) + 7h) % nA (0: none);
  // unique within the hour while ROWS_PER_HOUR ≤ nC·nD·nA.
  if (ROWS_PER_HOUR > nC * nD * nA) throw new Error('too many keys per hour for the dimensions');
  const channel = caseOf(`(i % ${nC})`, ids.channels);
  const department = `(case when (i / ${nC}) % ${nD} = 0 then 0 else ${caseOf(`((i / ${nC}) % ${nD} - 1)`, ids.departments)} end)`;
  const agentIndex = `((i / ${nC * nD} + h * 7) % ${nA})`;
  const agent = `(case when ${agentIndex} = 0 then 0 else ${caseOf(`(${agentIndex} - 1)`, ids.agents)} end)`;
  const started = `(case when i % 7 = 0 then 2 else 1 end)`;
  const missed = `(case when ${agentIndex} = 0 then ${started} else 0 end)`;
  const accepted = `(${started} - ${missed})`;
  const frt = `(8000 + ((h * 37 + i * 11) % 240) * 1000)`;
  const dur = `(120000 + ((h * 13 + i * 29) % 2400) * 1000)`;
  const hourly = `${g.with}insert into report_hourly (account_id, hour, channel_id, department_id, agent_id, started, accepted, finished, missed,
      frt_count, frt_sum_ms, dur_count, dur_sum_ms, handled_ms, positive, negative)
    select ${ids.account}, ${start} + h * cast(${HOUR} as bigint), ${channel}, ${department}, ${agent}, ${started}, ${accepted}, ${started}, ${missed},
      ${accepted}, ${accepted} * ${frt}, ${started}, ${started} * ${dur}, ${accepted} * ${dur}, (case when i % 3 = 0 then 1 else 0 end), (case when i % 17 = 0 then 1 else 0 end)
    from ${g.from}`;
  await sql.raw(hourly).execute(d);
  // The bins of report_hist for those sums (bin i is [edge i, edge i+1) of REPORT_BIN_EDGES: 8–248 s lands in 1–11, 2–42 min in 9–18).
  const binOf = (ms: string) =>
    `(case when ${ms} < 10000 then 1 when ${ms} < 15000 then 2 when ${ms} < 20000 then 3 when ${ms} < 30000 then 4 when ${ms} < 45000 then 5 when ${ms} < 60000 then 6 when ${ms} < 90000 then 7 when ${ms} < 120000 then 8 when ${ms} < 180000 then 9 when ${ms} < 240000 then 10 when ${ms} < 300000 then 11 when ${ms} < 420000 then 12 when ${ms} < 600000 then 13 when ${ms} < 900000 then 14 when ${ms} < 1200000 then 15 when ${ms} < 1800000 then 16 when ${ms} < 2700000 then 17 else 18 end)`;
  for (const [metric, ms, n, where] of [
    ['frt', frt, accepted, `${agentIndex} <> 0`],
    ['dur', dur, started, '1 = 1'],
  ] as const) {
    await sql
      .raw(
        `${g.with}insert into report_hist (account_id, hour, channel_id, department_id, agent_id, metric, bin, count)
         select ${ids.account}, ${start} + h * cast(${HOUR} as bigint), ${channel}, ${department}, ${agent}, '${metric}', ${binOf(ms)}, ${n} from ${g.from} where ${where}`,
      )
      .execute(d);
  }
  // Offline messages: 6 a day; callback requests: 2 a day (evenings), each on a widget.
  const days = YEARS * 365;
  const dayGrid = (per: number) => grid(db, days, per);
  const off = dayGrid(6);
  await sql
    .raw(
      `${off.with}insert into offline_messages (account_id, channel_id, name, email, message, created_at)
       select ${ids.account}, ${caseOf(`(i % ${nC})`, ids.channels)}, 'Visitor', 'visitor@example.com', 'Please call me back', ${start} + h * cast(${DAY} as bigint) + (18 + i) * ${HOUR} + i * 60000 from ${off.from}`,
    )
    .execute(d);
  const cb = dayGrid(2);
  await sql
    .raw(
      `${cb.with}insert into calls (account_id, channel_id, type, phone, status, created_at, updated_at)
       select ${ids.account}, ${caseOf(`(i % ${nC})`, ids.channels)}, 'callback', '+4930123456', 'finished', ${start} + h * cast(${DAY} as bigint) + (17 + i) * ${HOUR}, ${start} + h * cast(${DAY} as bigint) + (17 + i) * ${HOUR} from ${cb.from}`,
    )
    .execute(d);
  // Status changes: every agent online 08:00, away 12:00, online 12:45, offline 17:00 every day.
  const st = grid(db, days, ids.agents.length * 4);
  const agentOf = caseOf(`(i / 4)`, ids.agents);
  await sql
    .raw(
      `${st.with}insert into agent_status_changes (account_id, agent_id, status, at)
       select ${ids.account}, ${agentOf}, (case i % 4 when 0 then 'online' when 1 then 'away' when 2 then 'online' else 'offline' end),
         ${start} + h * cast(${DAY} as bigint) + (case i % 4 when 0 then 8 * ${HOUR} when 1 then 12 * ${HOUR} when 2 then 12 * ${HOUR} + 45 * 60000 else 17 * ${HOUR} end)
       from ${st.from}`,
    )
    .execute(d);
  // Each change's end (the agent's next change), as setAgentStatus keeps it (migration 026_status_ends).
  await fillStatusEnds(d);
  // The cube's "all" rows (migration 015_reports_cube), summed from the exact keys as the migration does.
  await buildCubeRows(d);
  await sql`analyze`.execute(d);
}

async function counts(store: Awaited<ReturnType<typeof openStore>>): Promise<ReportsResult['rows']> {
  const count = async (table: 'report_hourly' | 'report_hist' | 'report_daily' | 'offline_messages' | 'calls' | 'agent_status_changes') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    hourly: await count('report_hourly'),
    hist: await count('report_hist'),
    daily: await count('report_daily'),
    offline: await count('offline_messages'),
    calls: await count('calls'),
    status: await count('agent_status_changes'),
  };
}

async function timeOne(base: string, token: string, endpoint: string, query: string): Promise<{ cold: number; median: number; max: number }> {
  const times: number[] = [];
  for (let n = 0; n < RUNS; n++) {
    const t0 = performance.now();
    try {
      await json(`${base}/api/v1/reports/${endpoint}?${query}`, { token });
    } catch (err) {
      // A kept-alive connection the server closed as it was reused (EPIPE): asked again on a new one, timed from then.
      process.stderr.write(`/${endpoint}?${query}: ${String((err as Error).cause ?? err)}; once more\n`);
      const t1 = performance.now();
      await json(`${base}/api/v1/reports/${endpoint}?${query}`, { token, headers: { connection: 'close' } });
      times.push(performance.now() - t1);
      continue;
    }
    times.push(performance.now() - t0);
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  return { cold: times[0] ?? 0, median: warm[Math.floor(warm.length / 2)] ?? times[0] ?? 0, max: Math.max(...times) };
}

async function benchReports(db: Db, load: LoadWatch): Promise<ReportsResult> {
  const server = await startParley({ db });
  // Bulk seeding runs for minutes: no statement timeout on this connection.
  const store = await openStore({
    databaseUrl: db === 'postgres' ? PG_URL : null,
    databaseSchema: server.schema,
    dataDir: server.dataDir,
    dbStatementTimeoutMs: 3_600_000,
  });
  try {
    const token = await adminToken(server.base);
    const post = <T>(path: string, body: unknown) => json<T>(`${server.base}/api/v1${path}`, { method: 'POST', token, body });
    const channels: number[] = [];
    for (const name of ['Website', 'Shop', 'Help center', 'Mobile site']) channels.push((await post<{ id: number }>('/channels', { type: 'widget', name })).id);
    const departments: number[] = [];
    for (const name of ['Sales', 'Support', 'Billing', 'Returns']) departments.push((await post<{ id: number }>('/departments', { name })).id);
    const agents: number[] = [];
    for (let n = 1; n <= 20; n++)
      agents.push(
        (await post<{ id: number }>('/agents', { name: `Agent ${n}`, email: `agent${n}@example.com`, password: 'bench-password-1', role: 'agent' })).id,
      );
    const account = (await store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;

    // Two years ending with today's UTC hour.
    const end = Math.floor(Date.now() / HOUR) * HOUR;
    const start = end - HOURS * HOUR;
    const t0 = performance.now();
    process.stderr.write(`reports benchmark on ${db}: seeding ${HOURS * ROWS_PER_HOUR} rollup rows…\n`);
    await seed(db, store, { account, channels, departments, agents }, start);
    const seedSeconds = (performance.now() - t0) / 1000;
    load.sample();
    // The account's zone (its callback hours') changes to ZONE: reports default to it, and the server's
    // worker rebuilds the daily rollup in it from the hours just written, as it does for any such change.
    const t1 = performance.now();
    const put = () => json(`${server.base}/api/v1/settings`, { method: 'PUT', token, body: { callback: { timezone: ZONE } } });
    // After minutes of seeding the kept-alive connection is gone (EPIPE): asked again on a new one.
    await put().catch(() => put());
    for (;;) {
      const zone = await store.db.selectFrom('report_daily_zones').selectAll().where('account_id', '=', account).executeTakeFirst();
      if (zone?.timezone === ZONE && zone.built_through === null) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const dailySeconds = (performance.now() - t1) / 1000;
    await sql`analyze`.execute(store.db);
    const rows = await counts(store);
    load.sample();

    const todayUtc = iso(Date.now());
    const ranges: Array<[string, string]> = [
      ['1 day, hourly', `from=${todayUtc}&to=${todayUtc}`],
      ['7 days', `from=${iso(Date.now() - 6 * DAY)}&to=${todayUtc}`],
      ['31 days, hourly', `from=${iso(Date.now() - 30 * DAY)}&to=${todayUtc}&interval=hour`],
      ['90 days', `from=${iso(Date.now() - 89 * DAY)}&to=${todayUtc}`],
      ['365 days', `from=${iso(Date.now() - 364 * DAY)}&to=${todayUtc}`],
    ];
    const filters: Array<[string, string]> = [
      ['none', ''],
      ['channel', `&channel_id=${channels[0]}`],
      ['agent', `&agent_id=${agents[0]}`],
    ];
    const timings: Timing[] = [];
    for (const [range, query] of ranges) {
      for (const [filter, extra] of filters) {
        for (const endpoint of ENDPOINTS) {
          const t = await timeOne(server.base, token, endpoint, `${query}${extra}&timezone=${ZONE}`);
          timings.push({ range, filter, endpoint, coldMs: t.cold, medianMs: t.median, maxMs: t.max });
        }
        load.sample();
      }
    }
    for (const endpoint of ENDPOINTS) {
      const t = await timeOne(server.base, token, endpoint, `${ranges[ranges.length - 1][1]}&timezone=${OTHER_ZONE}`);
      timings.push({ range: OTHER, filter: 'none', endpoint, coldMs: t.cold, medianMs: t.median, maxMs: t.max });
    }
    return { db, seedSeconds, dailySeconds, rows, timings };
  } finally {
    await store.close();
    await server.stop();
    await cleanup(server);
  }
}

export async function runReportsBench(dbs: Db[]): Promise<void> {
  const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  writeSection(
    'reports',
    `## Reports on a year of a busy account (issue 22)

\`npm run bench -- --only=reports\` (each store's subsection is rewritten by its own run). Two years of ${CHATS_PER_YEAR.toLocaleString('en')} chats a year (so a year-long report's previous period is real): ${ROWS_PER_HOUR} rollup keys (channel × department × accepting agent, 4 × 5 × 21 possible) an hour carrying 1–2 chats each, a first-response and a duration bin per key, the cube's "all" rows (per hour: everything, each channel, department and agent), 6 offline messages and 2 callback requests a day, 20 agents changing status 4 times a day; written with bulk SQL. Then the account's zone is set to ${ZONE} through the API, and the server's worker builds the daily rollup in it from those hours (what any change of the account's zone runs), timed apart. Messages never reach the rollups (a chat's first reply is in its first-response sum), so this stands for any number of messages (10,000,000 or more). Each report asked over HTTP with an admin token, in the account's zone, ${RUNS} times: median of the warm runs, first (cold) run in brackets, in ms; **bold** over the goal of ${GOAL_MS} ms. The last row asks for a year in another zone (${OTHER_ZONE}), which reads hours (not part of the goal).`,
  );
  for (const db of dbs) {
    const load = new LoadWatch();
    const r = await benchReports(db, load);
    const ranges = [...new Set(r.timings.map((t) => t.range))];
    const lines = ranges.flatMap((range) =>
      ['none', 'channel', 'agent'].flatMap((filter) => {
        if (!r.timings.some((x) => x.range === range && x.filter === filter)) return [];
        const cells = ENDPOINTS.map((e) => {
          const t = r.timings.find((x) => x.range === range && x.filter === filter && x.endpoint === e);
          if (!t) return '–';
          const text = `${ms(t.medianMs)} (${ms(t.coldMs)})`;
          return t.medianMs > GOAL_MS ? `**${text}**` : text;
        });
        return [`| ${range} | ${filter} | ${cells.join(' | ')} |`];
      }),
    );
    writeSection(
      `reports-${db}`,
      `### Reports on ${db}

${today()} — ${machineLine()}; ${load.line()}. Seeded in ${r.seedSeconds.toFixed(0)} s: ${r.rows.hourly.toLocaleString('en')} \`report_hourly\` rows, ${r.rows.hist.toLocaleString('en')} \`report_hist\` rows, ${r.rows.offline.toLocaleString('en')} offline messages, ${r.rows.calls.toLocaleString('en')} callback requests, ${r.rows.status.toLocaleString('en')} status changes. Daily rollup built from the hours in ${r.dailySeconds.toFixed(0)} s: ${r.rows.daily.toLocaleString('en')} \`report_daily\` rows.

| range | filter | ${ENDPOINTS.map((e) => `/${e}`).join(' | ')} |
|---|---|${ENDPOINTS.map(() => '---|').join('')}
${lines.join('\n')}`,
    );
    const goal = r.timings.filter((t) => t.range !== OTHER);
    const worst = goal.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
    const yearWorst = goal.filter((t) => t.range === '365 days').reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
    const dayWorst = goal.filter((t) => t.range !== '365 days').reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
    recordGoal({
      key: `reports-${r.db}`,
      benchmark: `#22 reports, ${CHATS_PER_YEAR.toLocaleString('en')} chats a year, slowest report in the account's zone (${r.db})`,
      goal: `≤ ${GOAL_MS} ms`,
      measured: `up to 90 days: ${ms(dayWorst.medianMs)} ms (/${dayWorst.endpoint}, ${dayWorst.range}, filter ${dayWorst.filter}); 365 days: ${ms(yearWorst.medianMs)} ms (/${yearWorst.endpoint}, filter ${yearWorst.filter})`,
      met: worst.medianMs <= GOAL_MS,
    });
  }
}
