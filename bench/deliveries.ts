/**
 * Outbound event deliveries per second (issue 8): BENCH_DELIVERIES (20,000)
 * event-webhook rows are written straight into the store (the outbox of
 * external sends, through enqueueDelivery, in one transaction), all due at the
 * same instant a few seconds later; the running server's deliverer then sends
 * them to a receiver on 127.0.0.1 that answers 200 at once. Rate = rows
 * recorded `delivered` / time from the due instant to the last one recorded.
 * Every request is signed and goes through the SSRF guard; connections are
 * kept alive, pooled per validated address (send.ts); MAX_IN_FLIGHT attempts
 * run at a time, their results recorded in batches. Goal: ≥ 3,000/s.
 */
import http from 'node:http';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { openStore } from '../server/db/database.js';
import { MAX_IN_FLIGHT } from '../server/webhooks/deliverer.js';
import { enqueueDelivery } from '../server/webhooks/enqueue.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { cleanup, cpuMs, PG_URL, startParley, type Db } from './lib/server.js';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const GOAL = 3000;
const LEAD_MS = 1000;

interface DeliveriesResult {
  db: Db;
  delivered: number;
  received: number;
  duplicates: number;
  seconds: number;
  cpuUsPerDelivery: number;
}

const body = (n: number) => ({
  event: 'chat_finished',
  chat_id: n,
  user_token: null,
  visitor: { name: 'Visitor', email: 'visitor@example.com', phone: null, number: n },
  session: { geoip: { country: 'DE' }, utm: null, ip_addr: '198.18.0.1', user_agent: 'Mozilla/5.0' },
  chat: { messages: [{ type: 'visitor', message: 'Hello, I have a question about my order.', timestamp: 1_700_000_000 }] },
  agents: { 1: { name: 'Agent', email: 'agent@example.com' } },
});

async function benchDeliveries(db: Db): Promise<DeliveriesResult> {
  const ids = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    ids.set(id, (ids.get(id) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  // BENCH_PROFILE=<dir>: the server writes a CPU profile there (node --cpu-prof).
  const server = await startParley({ db, nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [] });
  const store = await openStore({ databaseUrl: db === 'postgres' ? PG_URL : null, databaseSchema: server.schema, dataDir: server.dataDir });
  try {
    const account = await store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
    // Written far in the future, then all made due at one instant by one UPDATE.
    const later = Date.now() + 3_600_000;
    await store.db.transaction().execute(async (tx) => {
      for (let n = 0; n < COUNT; n++) {
        await enqueueDelivery(tx, { accountId: account.id, kind: 'event_webhook', eventType: 'chat_finished', url, body: body(n) }, later);
      }
    });
    const due = Date.now() + LEAD_MS;
    await store.db.updateTable('deliveries').set({ next_attempt_at: due, created_at: due, updated_at: due }).execute();
    // That UPDATE left a dead version of every row behind on PostgreSQL: clean it as autovacuum would.
    if (db === 'postgres') await sql`vacuum analyze deliveries`.execute(store.db);
    await new Promise((r) => setTimeout(r, due - Date.now() - 200));
    const cpuBefore = cpuMs(server.pid);
    let delivered = 0;
    const deadline = Date.now() + 60_000;
    while (delivered < COUNT && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await store.db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'delivered')
        .executeTakeFirst();
      delivered = Number(row?.n ?? 0);
    }
    const last = await store.db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('status', '=', 'delivered')
      .executeTakeFirst();
    const seconds = (Number(last?.at ?? Date.now()) - due) / 1000;
    const cpu = cpuMs(server.pid) - cpuBefore;
    return {
      db,
      delivered,
      received: [...ids.values()].reduce((a, b) => a + b, 0),
      duplicates: [...ids.values()].filter((v) => v > 1).length,
      seconds,
      cpuUsPerDelivery: (cpu * 1000) / Math.max(1, delivered),
    };
  } finally {
    await store.close();
    await server.stop();
    await cleanup(server);
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

export async function runDeliveriesBench(dbs: Db[]): Promise<void> {
  const results: DeliveriesResult[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`deliveries benchmark on ${db}…\n`);
    results.push(await benchDeliveries(db));
  }
  const rate = (r: DeliveriesResult) => r.delivered / r.seconds;
  writeSection(
    'deliveries',
    `## Event deliveries to a local receiver (issue 8)

${today()} — ${machineLine()}; ${load.line()}. ${COUNT.toLocaleString('en')} event-webhook rows (a ~500-byte \`chat_finished\` body each) written into the store all due at one instant; the server's deliverer sends them (signed, on kept-alive connections pooled per validated address, at most ${MAX_IN_FLIGHT} in flight, results recorded in batches) to a receiver on 127.0.0.1 in the load process that answers 200 at once. Rate = rows recorded \`delivered\` / time from the due instant to the last one recorded. Goal: ≥ ${GOAL.toLocaleString('en')}/s.

| store | delivered | requests received | webhook-ids received twice | time | deliveries/s | server CPU / delivery |
|---|---|---|---|---|---|---|
${results.map((r) => `| ${r.db} | ${r.delivered} | ${r.received} | ${r.duplicates} | ${r.seconds.toFixed(1)} s | **${rate(r).toFixed(0)}** | ${r.cpuUsPerDelivery.toFixed(0)} µs |`).join('\n')}`,
  );
  for (const r of results) {
    recordGoal({
      key: `deliveries-${r.db}`,
      benchmark: `Event deliveries to a local receiver (${r.db})`,
      goal: `≥ ${GOAL.toLocaleString('en')}/s`,
      measured: `${rate(r).toFixed(0)}/s`,
      met: r.delivered === COUNT && rate(r) >= GOAL,
    });
  }
}
