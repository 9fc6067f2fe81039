/**
 * The presence worker's log while the database is unavailable, for real: on
 * PostgreSQL reached through a relay the test cuts, agents whose last socket
 * closed cannot be set offline, one tick after another; that is one warn line
 * with the error through the outage log, not one line with a stack per tick.
 * A failure that is not the database being unavailable (a column renamed
 * away: both stores) is logged as before: at warn, with its error, each time.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outageApp, until, type LogLine, type OutageApp } from '../../test/helpers/outageApp.js';
import { seedAgent } from '../../test/helpers/realtime.js';
import { testDialect } from '../../test/helpers/testApp.js';
import { presenceTickMs, presenceWorker } from './presenceWorker.js';

const presenceLines = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('presence'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('presence worker: its log while the database is unavailable', () => {
  let t: OutageApp;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    t = await outageApp({ env: { PRESENCE_GRACE_SECONDS: '1' } });
    stop = await presenceWorker(t.app, t.app.ctx);
  });
  afterEach(async () => {
    await t.relay?.restore();
  });
  afterAll(async () => {
    await stop?.();
    await t?.close();
  });

  /** Agents online whose only socket opens and closes, one tick apart: each is gone in a tick of its own. */
  const leaveOneByOne = async (agents: Array<{ id: number; accountId: number }>) => {
    for (const a of agents) {
      const ref = { accountId: a.accountId, agentId: a.id };
      t.app.ctx.presence.opened(ref);
      t.app.ctx.presence.closed(ref);
      await sleep(presenceTickMs(1000) + 50);
    }
  };

  it.runIf(testDialect() === 'postgres')('agents gone while PostgreSQL is down: one warn line through the outage log, no line per tick', async () => {
    const agents = await Promise.all(Array.from({ length: 4 }, () => seedAgent(t.app, { status: 'online' })));
    const from = t.lines.length;
    await t.relay!.cut();
    await leaveOneByOne(agents);
    // The last one's grace period (1 s) and a tick or two.
    await sleep(1500);
    const lines = t.lines.slice(from);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(presenceLines(lines)).toEqual([
      expect.objectContaining({
        level: 40,
        source: 'presence',
        err: expect.objectContaining({ stack: expect.any(String) }),
        msg: 'presence: database unavailable: presence check failed; further failures are counted and logged at most once per 10 s',
      }),
    ]);
  });

  it('a check that fails for another reason stays at warn with its error, each time', async () => {
    const agents = await Promise.all(Array.from({ length: 2 }, () => seedAgent(t.app, { status: 'online' })));
    const from = t.lines.length;
    await sql`alter table agents rename column status to status_gone`.execute(t.app.ctx.db);
    try {
      await leaveOneByOne(agents);
      await until(() => presenceLines(t.lines.slice(from)).length >= 2, 5000, 'two failed checks');
    } finally {
      await sql`alter table agents rename column status_gone to status`.execute(t.app.ctx.db);
    }
    const lines = presenceLines(t.lines.slice(from));
    expect(lines).toHaveLength(2);
    for (const l of lines)
      expect(l).toMatchObject({ level: 40, msg: 'presence check failed', err: { message: expect.stringMatching(/status/), stack: expect.any(String) } });
  });
});
