/**
 * Migration 015 on a store that already has chats: first_response_at comes
 * from the first agent message that is not a private note, each agent's
 * current status opens its history, and the rollups hold exactly what the
 * subscriber would have written for those chats (factsOf, binOf).
 */
import { expect, it } from 'vitest';
import { migrationStore } from '../../../test/helpers/migrationStore.js';
import { binOf } from '../../domain/reports/bins.js';
import { factsOf } from '../../domain/reports/chatContribution.js';

const { db, migrator: openMigrator } = migrationStore();

const H = 3_600_000;

it('fills first responses, opens the status history and builds the rollups of the stored chats', async () => {
  const migrator = await openMigrator();
  expect((await migrator.migrateTo('007_auth_expiry')).error).toBeUndefined();

  const insert = async (table: string, values: Record<string, unknown>) =>
    (await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id as number;
  const account = await insert('accounts', { name: 'a', next_visitor_number: 1, created_at: 0 });
  const agent = (name: string, status: string) =>
    insert('agents', { account_id: account, name, email: `${name}@example.com`, password_hash: 'x', role: 'agent', status, created_at: 0, updated_at: 0 });
  const ann = await agent('ann', 'online');
  await agent('bob', 'offline');
  const channel = await insert('channels', { account_id: account, type: 'widget', name: 'w', public_id: 'w1', created_at: 0, updated_at: 0 });
  let n = 0;
  const chat = async (values: Record<string, unknown>) => {
    n += 1;
    const visitor = await insert('visitors', { account_id: account, channel_id: channel, external_id: `v${n}`, number: n, created_at: 0, updated_at: 0 });
    return insert('chats', { account_id: account, channel_id: channel, visitor_id: visitor, status: 'pending', updated_at: 0, ...values });
  };
  const message = (chatId: number, author: string, created_at: number, internal = 0) =>
    insert('messages', { account_id: account, chat_id: chatId, author, type: 'text', text: 'x', internal, created_at });

  const t0 = 100 * H;
  // Answered (a private note first, then the reply at +50 s), finished at +15 min, rated.
  const answered = await chat({
    status: 'finished',
    accepted_by: ann,
    created_at: t0,
    accepted_at: t0 + 20_000,
    finished_at: t0 + 15 * 60_000,
    rate: 'positive',
  });
  await message(answered, 'visitor', t0);
  await message(answered, 'agent', t0 + 30_000, 1);
  await message(answered, 'agent', t0 + 50_000);
  await message(answered, 'agent', t0 + 70_000);
  // Missed: finished with only a private note.
  const missed = await chat({ status: 'finished', created_at: t0 + 10 * 60_000, finished_at: t0 + 20 * 60_000 });
  await message(missed, 'agent', t0 + 11 * 60_000, 1);
  // Still pending, another hour.
  await chat({ status: 'pending', created_at: t0 + 2 * H + 5 });

  expect((await migrator.migrateToLatest()).error).toBeUndefined();

  const chats = await db.selectFrom('chats').selectAll().orderBy('id').execute();
  expect(chats.map((c) => (c.first_response_at === null ? null : Number(c.first_response_at)))).toEqual([t0 + 50_000, null, null]);
  // Migration 052: the finished chat nobody answered is missed (at its finish), so it stays one of the reports' missed chats.
  expect(chats.map((c) => (c.missed_at === null ? null : Number(c.missed_at)))).toEqual([null, t0 + 20 * 60_000, null]);

  const history = await db.selectFrom('agent_status_changes').select(['agent_id', 'status']).execute();
  expect(history).toEqual([{ agent_id: ann, status: 'online' }]);

  const facts = await db.selectFrom('report_chat_facts').selectAll().orderBy('chat_id').execute();
  const normalize = (r: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null || Number.isNaN(Number(v)) ? v : Number(v)]));
  expect(facts.map(normalize)).toEqual(chats.map((c) => normalize({ ...factsOf({ ...c, created_at: Number(c.created_at) } as never) })));

  // The exact keys (the cube's "all" rows, -1, are checked below).
  const hourly = (
    await db
      .selectFrom('report_hourly')
      .selectAll()
      .where('channel_id', '<>', -1)
      .where('department_id', '<>', -1)
      .where('agent_id', '<>', -1)
      .orderBy('hour')
      .orderBy('agent_id')
      .execute()
  ).map(normalize);
  expect(hourly).toEqual([
    {
      account_id: account,
      hour: t0,
      channel_id: channel,
      department_id: 0,
      agent_id: 0,
      ...{
        started: 1,
        accepted: 0,
        finished: 1,
        missed: 1,
        frt_count: 0,
        frt_sum_ms: 0,
        dur_count: 1,
        dur_sum_ms: 600_000,
        handled_ms: 0,
        positive: 0,
        negative: 0,
      },
    },
    {
      account_id: account,
      hour: t0,
      channel_id: channel,
      department_id: 0,
      agent_id: ann,
      ...{
        started: 1,
        accepted: 1,
        finished: 1,
        missed: 0,
        frt_count: 1,
        frt_sum_ms: 50_000,
        dur_count: 1,
        dur_sum_ms: 900_000,
        handled_ms: 880_000,
        positive: 1,
        negative: 0,
      },
    },
    {
      account_id: account,
      hour: t0 + 2 * H,
      channel_id: channel,
      department_id: 0,
      agent_id: 0,
      ...{ started: 1, accepted: 0, finished: 0, missed: 0, frt_count: 0, frt_sum_ms: 0, dur_count: 0, dur_sum_ms: 0, handled_ms: 0, positive: 0, negative: 0 },
    },
  ]);
  const hist = (
    await db
      .selectFrom('report_hist')
      .select(['agent_id', 'metric', 'bin', 'count'])
      .where('channel_id', '<>', -1)
      .where('department_id', '<>', -1)
      .where('agent_id', '<>', -1)
      .orderBy('metric')
      .orderBy('agent_id')
      .execute()
  ).map(normalize);
  expect(hist).toEqual([
    { agent_id: 0, metric: 'dur', bin: binOf(600_000), count: 1 },
    { agent_id: ann, metric: 'dur', bin: binOf(900_000), count: 1 },
    { agent_id: ann, metric: 'frt', bin: binOf(50_000), count: 1 },
  ]);

  // Migration 015_reports_cube: the "all" rows (-1) hold the sums of the exact keys they stand for.
  const cube = async (channelId: number, departmentId: number, agentId: number, hour: number) =>
    normalize(
      (await db
        .selectFrom('report_hourly')
        .select(['started', 'accepted', 'missed', 'frt_sum_ms', 'dur_sum_ms', 'positive'])
        .where('channel_id', '=', channelId)
        .where('department_id', '=', departmentId)
        .where('agent_id', '=', agentId)
        .where('hour', '=', hour)
        .executeTakeFirst()) ?? {},
    );
  const both = { started: 2, accepted: 1, missed: 1, frt_sum_ms: 50_000, dur_sum_ms: 1_500_000, positive: 1 };
  expect(await cube(-1, -1, -1, t0)).toEqual(both);
  expect(await cube(channel, -1, -1, t0)).toEqual(both);
  expect(await cube(-1, 0, -1, t0)).toEqual(both);
  expect(await cube(-1, -1, ann, t0)).toEqual({ started: 1, accepted: 1, missed: 0, frt_sum_ms: 50_000, dur_sum_ms: 900_000, positive: 1 });
  expect(await cube(-1, -1, 0, t0 + 2 * H)).toEqual({ started: 1, accepted: 0, missed: 0, frt_sum_ms: 0, dur_sum_ms: 0, positive: 0 });
  const cubeHist = await db
    .selectFrom('report_hist')
    .select(['metric', 'bin', 'count'])
    .where('channel_id', '=', -1)
    .where('department_id', '=', -1)
    .where('agent_id', '=', -1)
    .orderBy('metric')
    .orderBy('bin')
    .execute();
  expect(cubeHist.map(normalize)).toEqual(
    [
      { metric: 'dur', bin: binOf(600_000), count: 1 },
      { metric: 'dur', bin: binOf(900_000), count: 1 },
      { metric: 'frt', bin: binOf(50_000), count: 1 },
    ].sort((a, b) => (a.metric === b.metric ? a.bin - b.bin : a.metric < b.metric ? -1 : 1)),
  );
});
