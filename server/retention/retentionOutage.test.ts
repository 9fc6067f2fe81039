/**
 * The retention worker's log while the database is unavailable, for real: on
 * PostgreSQL reached through a relay the test cuts, its passes (one a second
 * here) fail; that is one warn line with the error, summaries no more often
 * than every two of its intervals, one line once passes stop failing, and
 * never an error line. A failure that is not the database being unavailable
 * (a column renamed away: both stores) stays at error with its stack.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outageApp, until, type LogLine, type OutageApp } from '../../test/helpers/outageApp.js';
import { testDialect } from '../../test/helpers/testApp.js';
import { UnavailableLog } from '../errors/unavailableLog.js';
import { Retention } from './worker.js';

const retentionLines = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('retention'));

describe('retention worker: its log while the database is unavailable', () => {
  let t: OutageApp;
  let retention: Retention;
  let outageLog: UnavailableLog;

  beforeAll(async () => {
    t = await outageApp({ env: { RETENTION_INTERVAL_SECONDS: '1' } });
    // Shorter than the worker's own two intervals (2 s), which then set the pace of the summaries.
    outageLog = new UnavailableLog({ log: t.app.ctx.log, intervalMs: 500 });
    retention = new Retention(t.app.ctx, { unavailable: outageLog });
    retention.start();
  });
  afterEach(async () => {
    await t.relay?.restore();
  });
  afterAll(async () => {
    await retention?.stop();
    outageLog?.close();
    await t?.close();
  });

  it.runIf(testDialect() === 'postgres')(
    'passes failing while PostgreSQL is down: one warn line, summaries, one line once they stop; no error line',
    { timeout: 30_000 },
    async () => {
      const from = t.lines.length;
      await t.relay!.cut();
      await new Promise((r) => setTimeout(r, 5500));
      await t.relay!.restore();
      await until(() => retentionLines(t.lines.slice(from)).some((l) => l.level === 30), 8000, 'the line saying passes work again');
      const lines = retentionLines(t.lines.slice(from));
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(lines[0]).toMatchObject({
        level: 40,
        source: 'retention',
        err: { stack: expect.any(String) },
        msg: 'retention: database unavailable: retention pass failed; further failures are counted and logged at most once per 2 s',
      });
      const summaries = lines.slice(1, -1);
      expect(summaries.length).toBeGreaterThanOrEqual(1);
      for (const s of summaries)
        expect(s).toMatchObject({ level: 40, msg: expect.stringMatching(/^retention: database unavailable: \d+ pass(es)? failed in the last [\d.]+ s$/) });
      const failed = 1 + summaries.reduce((n, s) => n + (s.failures as number), 0);
      expect(failed).toBeGreaterThanOrEqual(4);
      expect(summaries.length).toBeLessThan(failed - 1);
      expect(lines.at(-1)).toMatchObject({
        level: 30,
        source: 'retention',
        failures: failed,
        msg: expect.stringMatching(/^retention: database available again: no pass failed in the last [\d.]+ s/),
      });
    },
  );

  it('a pass that fails for another reason is logged at error with its stack, each time', { timeout: 20_000 }, async () => {
    const from = t.lines.length;
    await sql`alter table inbound_dedup rename column created_at to created_at_gone`.execute(t.app.ctx.db);
    try {
      await until(() => retentionLines(t.lines.slice(from)).length >= 2, 5000, 'two failed passes');
    } finally {
      await sql`alter table inbound_dedup rename column created_at_gone to created_at`.execute(t.app.ctx.db);
    }
    for (const l of retentionLines(t.lines.slice(from))) {
      expect(l).toMatchObject({ level: 50, msg: 'retention pass failed', err: { message: expect.stringMatching(/created_at/), stack: expect.any(String) } });
    }
  });
});
