/**
 * DB_STATEMENT_TIMEOUT_MS on the real PostgreSQL (postgres project only): a
 * statement past the limit (pg_sleep, or a lock another session holds) is
 * cancelled and the request answers 503 in the documented shape, on the API
 * and on the chat channel, logged at warn, and the app serves on; the relay
 * and the deliverer retry after their statements are cancelled; migrations
 * run without the limit (a start waits for another instance's migration).
 * A server that answers nothing at all: test/faults/postgresFrozen.test.ts.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, startCustomerEndpoint, textMessage } from '../../test/helpers/chatChannel.js';
import { loggedApp, type LoggedApp } from '../../test/helpers/loggedApp.js';
import { allRelayed, emit, seedChat } from '../../test/helpers/realtime.js';
import { bearer, freshStore, testDialect, type TestStore } from '../../test/helpers/testApp.js';
import { errorRegistry } from '../errors/registry.js';
import { commit } from '../events/outbox.js';
import { enqueueDelivery } from '../webhooks/enqueue.js';
import { openStore } from './database.js';

const env = { DB_STATEMENT_TIMEOUT_MS: '200' };
const unavailable = { error: { code: 'service_unavailable', message: errorRegistry.service_unavailable.message } };
/** events/relay.ts LOCK_CLASS: pg_advisory_lock(class, hashtext(schema)), held by the relay during a batch. */
const RELAY_LOCK_CLASS = 0x50_52_4c;
/** Kysely's migration lock (LOCK_ID in kysely's postgres-adapter.js). */
const MIGRATION_LOCK_ID = '3853314791062309107';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A session of the test's own on the store's schema, to hold locks the app then waits for. */
async function session(store: TestStore): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: store.env.DATABASE_URL, options: `-c search_path=${store.env.DATABASE_SCHEMA}` });
  await client.connect();
  return client;
}

describe.runIf(testDialect() === 'postgres')('DB_STATEMENT_TIMEOUT_MS: requests', () => {
  let store: TestStore;
  let t: LoggedApp;
  let holder: pg.Client;

  beforeAll(async () => {
    store = freshStore();
    t = await loggedApp(store, {
      env,
      routes: (app) => {
        app.get('/test/sleep', async () => {
          await sql`select pg_sleep(3)`.execute(app.ctx.db);
          return { slept: true };
        });
      },
    });
    holder = await session(store);
  });
  afterAll(async () => {
    await holder?.end();
    await t?.app.close();
    await store?.cleanup();
  });

  it('cancels a statement past the limit: 503 in the documented shape, logged at warn; then serves on', async () => {
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: '/test/sleep' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(unavailable);
    expect(Date.now() - started).toBeLessThan(2000);
    const logged = t.lines.find((l) => /^database unavailable/.test(l.msg));
    expect(logged).toMatchObject({ level: 40, err: { code: '57014' } });
    expect(t.lines.filter((l) => l.level >= 50)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(await t.me()).toBe(200);
  });

  it('bounds the wait for a lock held elsewhere: 503 on the API and on the chat channel (numeric code); then serves on', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: bearer(t.adminToken),
      payload: { type: 'chat_api', name: 'Locked out', webhook_url: 'https://customer.example.com/hook', chunked: false, agent_ids: [] },
    });
    expect(created.statusCode).toBe(201);
    const path = new URL(created.json().endpoint_url as string).pathname;
    const post = () =>
      t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(textMessage('c-1', 'hello')) });

    await holder.query('begin');
    await holder.query('lock table channels in access exclusive mode');
    try {
      const started = Date.now();
      const res = await post();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: errorRegistry.service_unavailable.number, message: errorRegistry.service_unavailable.message } });
      const api = await t.app.inject({ method: 'GET', url: '/api/v1/channels', headers: bearer(t.adminToken) });
      expect(api.statusCode).toBe(503);
      expect(api.json()).toEqual(unavailable);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await holder.query('rollback');
    }
    const after = await post();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ result: 'ok' });
    expect(t.lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe.runIf(testDialect() === 'postgres')('DB_STATEMENT_TIMEOUT_MS: workers', () => {
  let store: TestStore;
  let t: LoggedApp;
  let holder: pg.Client;

  beforeAll(async () => {
    store = freshStore();
    t = await loggedApp(store, { env, workers: true });
    holder = await session(store);
  });
  afterAll(async () => {
    await holder?.end();
    await t?.app.close();
    await store?.cleanup();
  });

  it('the relay retries after its statements are cancelled, and relays once it gets its lock', async () => {
    const chat = await seedChat(t.app);
    await holder.query('select pg_advisory_lock($1, hashtext(current_schema()))', [RELAY_LOCK_CLASS]);
    try {
      await emit(t.app, chat);
      await waitFor(() => t.lines.some((l) => l.msg === 'relay batch failed' && l.err?.code === '57014'), 5000);
    } finally {
      await holder.query('select pg_advisory_unlock($1, hashtext(current_schema()))', [RELAY_LOCK_CLASS]);
    }
    await allRelayed(t.app, 10_000);
  });

  it('the deliverer retries after its statements are cancelled, and sends once the table is free', async () => {
    const endpoint = await startCustomerEndpoint();
    try {
      const due = Date.now() + 1500;
      const { id } = await commit(t.app.ctx.db, t.app.ctx.signals, (tx) =>
        enqueueDelivery(
          tx,
          { accountId: t.app.ctx.defaultAccountId, kind: 'event_webhook', eventType: 'chat_updated', url: `${endpoint.url}/events`, body: { n: 1 } },
          due,
        ),
      );
      await holder.query('begin');
      await holder.query('lock table deliveries in access exclusive mode');
      try {
        await waitFor(() => t.lines.some((l) => /^deliverer: /.test(l.msg) && l.err?.code === '57014'), 5000);
        // Held past the row's due time: it is sent only after the lock goes.
        await sleep(Math.max(0, due + 300 - Date.now()));
        expect(endpoint.requests).toHaveLength(0);
      } finally {
        await holder.query('rollback');
      }
      await waitFor(() => endpoint.requests.length === 1, 5000);
      const row = await waitFor(async () => {
        const r = await t.app.ctx.db.selectFrom('deliveries').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
        return r.status === 'delivered' ? r : null;
      }, 5000);
      expect(row.attempts).toBe(1);
    } finally {
      await endpoint.close();
    }
  });
});

describe.runIf(testDialect() === 'postgres')('DB_STATEMENT_TIMEOUT_MS: migrations', () => {
  it("migrations run without the limit: a start waits for another instance's migration lock, then serves with the limit", async () => {
    const store = freshStore();
    const holder = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
      const started = Date.now();
      const opening = openStore({
        databaseUrl: store.env.DATABASE_URL,
        databaseSchema: store.env.DATABASE_SCHEMA,
        dataDir: store.env.DATA_DIR,
        dbStatementTimeoutMs: 100,
      }).then(
        (s) => ({ store: s }),
        (err: unknown) => ({ err }),
      );
      await sleep(600);
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
      const opened = await opening;
      if ('err' in opened) throw opened.err;
      try {
        expect(Date.now() - started).toBeGreaterThanOrEqual(550);
        const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(opened.store.db);
        expect(rows[0]?.statement_timeout).toBe('100ms');
      } finally {
        await opened.store.close();
      }
    } finally {
      await holder.end();
      await store.cleanup();
    }
  });
});
