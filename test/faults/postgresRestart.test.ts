/**
 * PostgreSQL restarted under load (postgres project only). A Parley process
 * on a PostgreSQL server of the test's own (privatePostgres.ts: the machine's
 * cluster serves the other test files meanwhile, so it is never stopped)
 * takes a steady stream of chat-channel POSTs; PostgreSQL is stopped (fast
 * shutdown, as a service restart does), kept down a few seconds, and started
 * again. During the outage every answer is 503 (never 500, never a hang past
 * a bound, never a crash); afterwards requests succeed again without
 * restarting Parley, /healthz is 200, the deliverer sends again, and every
 * request that got 200 is stored exactly once. A second, deterministic case
 * ends the server session of a connection the app holds between two queries
 * (what a restart does to the relay's connection): the process must not crash.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect } from '../helpers/testApp.js';
import { assertBuilt } from '../process/serverProcess.js';
import {
  call,
  createChannel,
  expectCall,
  inbound,
  login,
  openChat,
  openReader,
  sleep,
  startParley,
  startReceiver,
  waitFor,
  type Channel,
  type Parley,
  type Receiver,
} from './harness.js';
import { startPrivatePostgres, type PrivatePostgres } from './privatePostgres.js';

/** How long PostgreSQL stays down. */
const OUTAGE_MS = 3000;
/** No request may take longer than this, outage or not. */
const ANSWER_BOUND_MS = 10_000;
const WORKERS = 4;

interface Outcome {
  text: string;
  /** HTTP status, or the error of a request that got no answer. */
  status: number | string;
  start: number;
  ms: number;
}

describe.runIf(testDialect() === 'postgres')('PostgreSQL restarted under load', () => {
  let db: PrivatePostgres | null = null;
  let app: Parley | null = null;
  let receiver: Receiver | null = null;
  const schema = 'parley_faults';

  beforeAll(async () => {
    assertBuilt();
    db = await startPrivatePostgres();
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await app?.kill();
    await receiver?.close();
    // The server is the test's own: stopping and removing it can leave nothing down for others.
    db?.destroy();
  });

  it('answers 503 during the outage, recovers without a restart, and keeps every 200', { timeout: 90_000 }, async () => {
    const env = { DATABASE_URL: db!.url, DATABASE_SCHEMA: schema };
    app = await startParley(env);
    const base = app.base;
    const token = await login(base);
    const channel: Channel = await createChannel(base, token, `${receiver!.url}/chat`);
    const chatId = await openChat(base, token, channel, 'pg-visitor');

    const outcomes: Outcome[] = [];
    const health: Array<{ at: number; status: number | string }> = [];
    let n = 0;
    let running = true;
    const worker = async (w: number): Promise<void> => {
      while (running) {
        const text = `pg-load ${w}-${n++}`;
        const start = Date.now();
        try {
          const res = await call(base, 'POST', channel.path, inbound(`pg-sender-${n % 20}`, text), undefined, ANSWER_BOUND_MS + 5000);
          outcomes.push({ text, status: res.status, start, ms: res.ms });
        } catch (err) {
          outcomes.push({ text, status: (err as Error).name + ': ' + (err as Error).message, start, ms: Date.now() - start });
        }
        await sleep(20);
      }
    };
    const poller = async (): Promise<void> => {
      while (running) {
        const res = await call(base, 'GET', '/healthz', undefined, undefined, ANSWER_BOUND_MS).catch((err: Error) => ({ status: err.message }));
        health.push({ at: Date.now(), status: res.status });
        await sleep(200);
      }
    };
    const load = Promise.all([...Array.from({ length: WORKERS }, (_, w) => worker(w)), poller()]);

    await sleep(2000);
    const down = Date.now();
    db!.stop();
    await sleep(OUTAGE_MS);
    await db!.start();
    const up = Date.now();
    // Back to normal: every request of the last 2 s answered 200 (bounded wait).
    await waitFor(
      'requests to succeed again',
      () => {
        const recent = outcomes.filter((o) => o.start > Date.now() - 2000);
        return Date.now() - up > 2000 && recent.length > 5 && recent.every((o) => o.status === 200);
      },
      30_000,
      200,
    )
      .catch((err: Error) => {
        const recent = outcomes.slice(-20).map((o) => `${o.status}/${o.ms}ms`);
        throw new Error(`${err.message}; last answers: ${recent.join(', ')}\n${app?.output().slice(-4000)}`);
      })
      .finally(() => {
        running = false;
      });
    await load;

    const during = outcomes.filter((o) => o.start >= down && o.start < up);
    const count = (list: Array<{ status: number | string }>): Record<string, number> =>
      list.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
    const firstOk = outcomes.find((o) => o.start >= up && o.status === 200);
    const summary =
      `[faults] postgres restart: down ${up - down} ms; ${outcomes.length} requests: ${JSON.stringify(count(outcomes))}; ` +
      `while down: ${JSON.stringify(count(during))}; slowest answer ${Math.max(...outcomes.map((o) => o.ms))} ms; ` +
      `first 200 ${firstOk ? firstOk.start - up : '?'} ms after PostgreSQL was up; /healthz: ${JSON.stringify(count(health))}`;
    console.log(summary);

    expect(app.alive(), app.output()).toBe(true);
    for (const o of outcomes) {
      expect([200, 503], `${o.text}: ${o.status}\n${summary}`).toContain(o.status);
      expect(o.ms, `${o.text}: ${o.status}`).toBeLessThan(ANSWER_BOUND_MS);
    }
    expect(
      during.some((o) => o.status === 503),
      summary,
    ).toBe(true);
    expect(
      health.some((h) => h.status === 503),
      summary,
    ).toBe(true);
    for (const h of health) expect([200, 503]).toContain(h.status);
    expect((await call(base, 'GET', '/healthz')).status).toBe(200);

    // The workers recovered too: an agent message after the outage reaches the customer endpoint.
    const message = await expectCall<{ id: number }>(201, base, 'POST', `/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'after the outage' }, token);
    await waitFor('the delivery after the outage', () => receiver!.requests.some((r) => r.body.includes('after the outage')), 10_000);
    await waitFor(
      'the message to be delivered',
      async () => {
        const chat = await expectCall<{ messages: Array<{ id: number; delivery?: { status: string } }> }>(
          200,
          base,
          'GET',
          `/api/v1/chats/${chatId}`,
          undefined,
          token,
        );
        return chat.messages.find((m) => m.id === message.id)?.delivery?.status === 'delivered';
      },
      10_000,
    );

    // Every 200 is stored, once; nothing answered otherwise is stored twice.
    const reader = await openReader(env);
    try {
      const rows = await reader.all<{ text: string; n: number | string }>("select text, count(*) as n from messages where text like 'pg-load %' group by text");
      const stored = new Map(rows.map((r) => [r.text, Number(r.n)]));
      const ok = outcomes.filter((o) => o.status === 200);
      const missing = ok.filter((o) => stored.get(o.text) !== 1).map((o) => `${o.text} (${stored.get(o.text) ?? 0})`);
      expect(missing, 'answered 200 but not stored exactly once').toEqual([]);
      expect([...stored.values()].every((v) => v === 1)).toBe(true);
    } finally {
      await reader.close();
    }
  });
});

describe.runIf(testDialect() === 'postgres')('a PostgreSQL session ended under a held connection', () => {
  it('does not crash the process; the pool replaces the connection', async () => {
    const t = await createTestApp();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    try {
      const outcome = await t.app.ctx.db.connection().execute(async (conn) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
        // Only this connection's own session, as a restart (57P01) would end it, while no query runs on it.
        await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
        await new Promise((r) => setTimeout(r, 300));
        return sql`select 1`.execute(conn).then(
          () => 'ok',
          (err: Error) => err.message,
        );
      });
      expect(outcome).not.toBe('ok');
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
    } finally {
      await admin.end();
      await t.close();
    }
  });
});
