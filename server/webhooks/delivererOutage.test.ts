/**
 * The deliverer's log while the database is unavailable, for real: on
 * PostgreSQL reached through a relay the test cuts (connections dropped, new
 * ones refused), its polls fail every second; that is one warn line with the
 * error, then summaries, then one line once it polls fine again, and never an
 * error line. A failure that is not the database being unavailable (here a
 * column the claim needs, renamed away: both stores) stays at error with its
 * stack on every poll, as before.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outageApp, retrying, until, type LogLine, type OutageApp } from '../../test/helpers/outageApp.js';
import { testDialect } from '../../test/helpers/testApp.js';
import { enqueue, startEndpoint, type Endpoint } from '../../test/helpers/webhooks.js';
import { UnavailableLog } from '../errors/unavailableLog.js';
import { Deliverer, POLL_MS } from './deliverer.js';

const INTERVAL_MS = 2000;
const delivererLines = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('deliverer:'));

describe('deliverer: its log while the database is unavailable', () => {
  let t: OutageApp;
  let endpoint: Endpoint;
  let deliverer: Deliverer;
  let outageLog: UnavailableLog;

  beforeAll(async () => {
    t = await outageApp();
    endpoint = await startEndpoint();
    // The app's own outage log sums up every 10 s; this one every 2 s, so the test need not wait as long.
    outageLog = new UnavailableLog({ log: t.app.ctx.log, intervalMs: INTERVAL_MS });
    deliverer = new Deliverer(t.app.ctx, { unavailable: outageLog });
    deliverer.start();
  });
  afterEach(async () => {
    await t.relay?.restore();
  });
  afterAll(async () => {
    await deliverer?.stop();
    outageLog?.close();
    await endpoint?.close();
    await t?.close();
  });

  const delivered = (id: number) => async () =>
    (await t.app.ctx.db.selectFrom('deliveries').select('status').where('id', '=', id).executeTakeFirst())?.status === 'delivered';

  it.runIf(testDialect() === 'postgres')(
    'PostgreSQL down for a few polls: one warn line with the error, summaries, one line when it is back; no error line',
    { timeout: 30_000 },
    async () => {
      const ctx = t.app.ctx;
      const before = await enqueue(ctx, { url: `${endpoint.url}/hook` });
      await until(delivered(before), 5000, 'the delivery before the outage');
      const from = t.lines.length;

      await t.relay!.cut();
      // Polls fail for 6.5 s: about 6 of them (one per POLL_MS).
      await new Promise((r) => setTimeout(r, 6.5 * POLL_MS));
      const during = delivererLines(t.lines.slice(from));
      await t.relay!.restore();

      const after = await retrying(() => enqueue(ctx, { url: `${endpoint.url}/hook` }));
      await until(delivered(after), 10_000, 'the delivery after the outage');
      await until(() => delivererLines(t.lines.slice(from)).some((l) => l.level === 30), 5000, 'the line saying the database is available again');

      const lines = delivererLines(t.lines.slice(from));
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      const opened = lines.filter((l) => l.level === 40 && l.msg.startsWith('deliverer: database unavailable: claiming due deliveries failed;'));
      expect(opened).toHaveLength(1);
      expect(opened[0]).toMatchObject({ source: 'deliverer', err: { stack: expect.any(String) } });
      const summaries = lines.filter((l) => l.level === 40 && /^deliverer: database unavailable: \d+ polls? failed in the last [\d.]+ s$/.test(l.msg));
      expect(summaries.length).toBeGreaterThanOrEqual(2);
      for (const s of summaries) expect(s).toMatchObject({ source: 'deliverer', failures: expect.any(Number), lastError: expect.any(String) });
      const failed = 1 + summaries.reduce((n, s) => n + (s.failures as number), 0);
      expect(failed).toBeGreaterThanOrEqual(5);
      // Summed up: fewer lines than failed polls.
      expect(summaries.length).toBeLessThan(failed - 1);
      expect(lines.filter((l) => l.level === 30)).toEqual([
        expect.objectContaining({
          source: 'deliverer',
          failures: failed,
          msg: expect.stringMatching(/^deliverer: database available again: no poll failed in the last [\d.]+ s; \d+ did since /),
        }),
      ]);
      // Nothing but those: no line per poll.
      expect(lines).toHaveLength(opened.length + summaries.length + 1);
      expect(during.length).toBeLessThanOrEqual(1 + Math.ceil((6.5 * POLL_MS) / INTERVAL_MS));
    },
  );

  it('any other failure of a poll stays at error, with its stack, every time', { timeout: 20_000 }, async () => {
    const ctx = t.app.ctx;
    const from = t.lines.length;
    await sql`alter table deliveries rename column locked_until to locked_until_gone`.execute(ctx.db);
    try {
      await until(() => delivererLines(t.lines.slice(from)).filter((l) => l.level === 50).length >= 2, 5000, 'two failed polls');
    } finally {
      await sql`alter table deliveries rename column locked_until_gone to locked_until`.execute(ctx.db);
    }
    const lines = delivererLines(t.lines.slice(from));
    const errors = lines.filter((l) => l.level === 50);
    for (const e of errors)
      expect(e).toMatchObject({
        msg: 'deliverer: claiming due deliveries failed',
        err: { message: expect.stringMatching(/locked_until/), stack: expect.any(String) },
      });
    expect(lines.filter((l) => l.level === 40)).toEqual([]);
    // And it delivers again.
    const id = await enqueue(ctx, { url: `${endpoint.url}/hook` });
    await until(delivered(id), 5000, 'the delivery after the rename back');
  });
});
