/**
 * The agent stream's log while the database is unavailable, for real: on
 * PostgreSQL reached through a relay the test cuts, agents reconnecting in a
 * loop fail to open their stream every time; that is one warn line with the
 * error and then one summary per 10 s, never an error line per attempt. A
 * live stream whose feed fails (and whose token check fails) the same. A
 * failure that is not the database being unavailable (a column renamed away:
 * both stores) stays at error with its stack.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectTwoOpenErrors, failOpensWithout, outageApp, retrying, until, type LogLine, type OutageApp } from '../../../../../test/helpers/outageApp.js';
import { listen, rawEvent, seedAgent, streamUrl, StreamClient } from '../../../../../test/helpers/realtime.js';
import { testDialect } from '../../../../../test/helpers/testApp.js';

const CLOSE_INTERNAL = 1011;
const streamLines = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('stream'));

describe('agent stream: its log while the database is unavailable', () => {
  let t: OutageApp;
  let base: string;
  let agent: { id: number; accountId: number; token: string };
  const clients: StreamClient[] = [];

  beforeAll(async () => {
    t = await outageApp();
    base = await listen(t.app);
    agent = await seedAgent(t.app);
  });
  afterEach(async () => {
    await t.relay?.restore();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await t?.close();
  });

  it.runIf(testDialect() === 'postgres')(
    'streams failing to open while PostgreSQL is down: one warn line with the error, then a summary; no error line',
    { timeout: 30_000 },
    async () => {
      const from = t.lines.length;
      await t.relay!.cut();
      const started = Date.now();
      for (let i = 0; i < 5; i++) {
        const c = await StreamClient.open(streamUrl(base, agent.token));
        expect(await c.waitClosed()).toMatchObject({ code: CLOSE_INTERNAL });
      }
      expect(Date.now() - started).toBeLessThan(9000);
      const during = t.lines.slice(from);
      expect(during.filter((l) => l.level >= 50)).toEqual([]);
      const opened = streamLines(during);
      expect(opened).toEqual([
        expect.objectContaining({
          level: 40,
          source: 'stream',
          reqId: expect.any(String),
          err: expect.objectContaining({ stack: expect.any(String) }),
          msg: 'stream: database unavailable: stream failed to open; further failures are counted and logged at most once per 10 s',
        }),
      ]);

      await t.relay!.restore();
      clients.push(await retrying(() => StreamClient.ready(streamUrl(base, agent.token))));
      await until(() => streamLines(t.lines.slice(from)).length > 1, 12_000, 'the summary');
      const lines = streamLines(t.lines.slice(from));
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      // The 4 after the first (one more if the first attempt after the restore met a connection the cut left dead).
      expect(lines[1]).toMatchObject({
        level: 40,
        source: 'stream',
        failures: expect.any(Number),
        msg: expect.stringMatching(/^stream: database unavailable: \d+ streams failed to open in the last [\d.]+ s$/),
      });
      expect(lines[1].failures).toBeGreaterThanOrEqual(4);
    },
  );

  it.runIf(testDialect() === 'postgres')(
    'a live stream whose feed fails while PostgreSQL is down: warn lines through the outage log, no error line',
    async () => {
      const c = await StreamClient.ready(streamUrl(base, agent.token));
      clients.push(c);
      const from = t.lines.length;
      await t.relay!.cut();
      // A change of the agent itself: the stream catches up from the store and rechecks the token, both failing.
      await t.app.ctx.hub.publish(
        rawEvent({
          id: 1_000_000_000,
          account_id: agent.accountId,
          type: 'agent.updated',
          chat_id: null,
          channel_id: null,
          seq: null,
          data: { agent: { id: agent.id, active: true } },
          created_at: Date.now(),
        }),
      );
      expect(await c.waitClosed()).toMatchObject({ code: CLOSE_INTERNAL });
      await until(() => streamLines(t.lines.slice(from)).length >= 2, 5000, 'the feed and token check lines');
      const lines = t.lines.slice(from);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      const failed = streamLines(lines);
      expect(failed.map((l) => [l.level, l.source, l.msg.replace(/;.*/, '')]).sort()).toEqual([
        [40, 'stream', 'stream: database unavailable: stream feed failed'],
        [40, 'stream', 'stream: database unavailable: stream token check failed'],
      ]);
      for (const l of failed) expect(l.err?.stack).toEqual(expect.any(String));
    },
  );

  it('a stream that fails to open for another reason is logged at error with its stack, each time', async () => {
    const from = t.lines.length;
    await failOpensWithout(t, 'auth_tokens', 'token_hash', () => StreamClient.open(streamUrl(base, agent.token)), CLOSE_INTERNAL);
    expectTwoOpenErrors(streamLines(t.lines.slice(from)), 'stream failed to open');
    clients.push(await StreamClient.ready(streamUrl(base, agent.token)));
  });
});
