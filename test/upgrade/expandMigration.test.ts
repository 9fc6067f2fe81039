/**
 * The next version's migrations against this one, on PostgreSQL + Redis
 * (#35, docs/DEPLOY.md "Upgrading"): during a rolling upgrade the new
 * version's first instance migrates the schema while this version's
 * instances go on serving. Migrations only expand (columns and tables added,
 * removed only in a later version), so what this version must survive is a
 * column added to every table it reads and a table it does not know: its
 * prepared statements of `select *` are outdated by that (PostgreSQL 0A000,
 * server/db/pgStatements.ts). Two instances of this build serve chat-channel
 * traffic and agents' reads while such an expansion is applied from outside;
 * no request gets a 5xx and every message answered 200 is stored.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../process/serverProcess.js';
import { ok, startInstance, startReceiver } from '../scale/cluster.js';
import { freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { expectNothingLost, failed, READS, sleep, startTraffic, storedTexts, summary, type Instance } from './traffic.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'admin@expand.example', password: 'expand-password-1' };

describe.skipIf(testDialect() !== 'postgres')("the next version's expand migration while this version serves", () => {
  const running: Instance[] = [];
  let store: TestStore;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    assertBuilt();
    store = freshStore();
    receiver = await startReceiver();
  });

  afterAll(async () => {
    for (const i of running) await i.kill();
    await receiver?.close();
    await store?.cleanup();
  });

  it('no 5xx and no message lost while every table gains a column and a new table appears', async () => {
    const env = { ...store.env, REDIS_URL, OUTBOUND_ALLOW_PRIVATE: '1', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    for (const name of ['a', 'b']) running.push(Object.assign(await startInstance(name, env), { inFlight: 0 }));
    const base = running[0].base;
    const admin = (await ok<{ token: string }>(200, base, 'POST', '/api/v1/auth/login', ADMIN)).token;
    const channel = await ok<{ endpoint_url: string }>(
      201,
      base,
      'POST',
      '/api/v1/channels',
      { type: 'chat_api', name: 'App', webhook_url: receiver.url, chunked: false, agent_ids: [] },
      admin,
    );
    const traffic = startTraffic({
      rotation: [...running],
      inbound: new URL(channel.endpoint_url).pathname,
      token: admin,
      senders: 4,
      reads: [
        ...READS,
        '/api/v1/visitors?email=someone%40example.com',
        '/api/v1/calls',
        '/api/v1/offline-messages',
        '/api/v1/canned-responses',
        '/api/v1/departments',
      ],
    });

    // Every statement prepared on the instances' connections first.
    await sleep(2000);
    const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    const expanded = Date.now();
    let tables: string[];
    try {
      const schema = store.env.DATABASE_SCHEMA;
      tables = (
        await client.query<{ table_name: string }>(
          `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by table_name`,
          [schema],
        )
      ).rows.map((r) => r.table_name);
      // One table at a time: a single ALTER waits for its table alone, so the expansion cannot
      // deadlock with the traffic and always completes here. (A version's migrations run in one
      // transaction and can deadlock with a read joining two of their tables: PostgreSQL aborts one
      // side, and both run again, server/db/database.ts and pgStatements.ts, tested in
      // pgStatements.test.ts.)
      for (const t of tables) await client.query(`alter table "${schema}"."${t}" add column next_version_column text`);
      await client.query(`create table "${schema}".next_version_table (id integer primary key, note text)`);
    } finally {
      await client.end();
    }
    await sleep(3000);
    await traffic.stop();

    const after = traffic.outcomes.filter((o) => o.at > expanded);
    const bad = traffic.outcomes.filter(failed);
    expect(tables.length).toBeGreaterThan(20);
    expect(after.filter((o) => o.kind === 'read').length).toBeGreaterThan(20);
    expect(after.filter((o) => o.kind === 'message').length).toBeGreaterThan(20);
    expect(bad.slice(0, 5), `${bad.length} failed: ${summary(bad, expanded)}\n${running.map((i) => i.output()).join('\n')}`).toEqual([]);
    expect(traffic.outcomes.filter((o) => o.status !== 200).slice(0, 5)).toEqual([]);
    expectNothingLost(traffic.outcomes, await storedTexts(store.env.DATABASE_URL, store.env.DATABASE_SCHEMA));
  }, 120_000);
});
