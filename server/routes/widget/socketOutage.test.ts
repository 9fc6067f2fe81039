/**
 * The visitor socket's log while the database is unavailable, for real, on
 * PostgreSQL reached through a relay the test cuts. While it is down, the
 * widget lookup before the upgrade answers 503 (a request: logged as one), so
 * the socket itself fails to open only when the database goes away between
 * the two: the test cuts it there (a preHandler hook), several times. That is
 * one warn line with the error, never an error line per attempt; a live
 * socket whose feed fails the same. A failure that is not the database being
 * unavailable (a column renamed away: both stores) stays at error with its
 * stack.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectTwoOpenErrors, failOpensWithout, outageApp, retrying, until, type LogLine, type OutageApp } from '../../../test/helpers/outageApp.js';
import { listen, rawEvent, StreamClient } from '../../../test/helpers/realtime.js';
import { testDialect } from '../../../test/helpers/testApp.js';
import { createWidget, startSession, visitorSocketUrl, type TestWidget } from '../../../test/helpers/widget.js';

const CLOSE_INTERNAL = 1011;
const socketLines = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('visitor socket'));

describe('visitor socket: its log while the database is unavailable', () => {
  let t: OutageApp;
  let base: string;
  let widget: TestWidget;
  let visitorToken: string;
  let cutOnOpen = false;
  const clients: StreamClient[] = [];

  beforeAll(async () => {
    t = await outageApp({
      routes: (app) =>
        app.addHook('preHandler', async (request) => {
          // After the widget lookup (preValidation), before the socket opens.
          if (cutOnOpen && request.url.startsWith('/widget/ws/')) await t.relay!.cut();
        }),
    });
    base = await listen(t.app);
    widget = await createWidget(t);
    visitorToken = (await startSession(t, widget.widget_id)).visitor_token;
  });
  afterEach(async () => {
    cutOnOpen = false;
    await t.relay?.restore();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await t?.close();
  });

  it.runIf(testDialect() === 'postgres')('sockets failing to open as PostgreSQL goes down: one warn line with the error; no error line', async () => {
    const from = t.lines.length;
    cutOnOpen = true;
    for (let i = 0; i < 4; i++) {
      const c = await retrying(() => StreamClient.open(visitorSocketUrl(base, widget.widget_id, visitorToken)));
      expect(await c.waitClosed()).toMatchObject({ code: CLOSE_INTERNAL });
      await t.relay!.restore();
    }
    const lines = t.lines.slice(from);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(socketLines(lines)).toEqual([
      expect.objectContaining({
        level: 40,
        source: 'visitor socket',
        reqId: expect.any(String),
        err: expect.objectContaining({ stack: expect.any(String) }),
        msg: 'visitor socket: database unavailable: visitor socket failed to open; further failures are counted and logged at most once per 10 s',
      }),
    ]);
  });

  it.runIf(testDialect() === 'postgres')(
    'a live socket whose feed fails while PostgreSQL is down: a warn line through the outage log, no error line',
    async () => {
      const c = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, visitorToken));
      clients.push(c);
      const from = t.lines.length;
      await t.relay!.cut();
      // An agent's change: the socket asks the store whether the widget is still staffed, and that fails.
      await t.app.ctx.hub.publish(
        rawEvent({
          id: 1_000_000_000,
          account_id: t.app.ctx.defaultAccountId,
          type: 'agent.updated',
          chat_id: null,
          channel_id: null,
          seq: null,
          data: { agent: { id: 1, active: true } },
          created_at: Date.now(),
        }),
      );
      expect(await c.waitClosed()).toMatchObject({ code: CLOSE_INTERNAL });
      await until(() => socketLines(t.lines.slice(from)).length >= 1, 5000, 'the feed line');
      const lines = t.lines.slice(from);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(socketLines(lines)).toEqual([
        expect.objectContaining({
          level: 40,
          source: 'visitor socket',
          visitor: expect.any(Number),
          err: expect.objectContaining({ stack: expect.any(String) }),
          msg: expect.stringMatching(/^visitor socket: database unavailable: visitor socket feed failed;/),
        }),
      ]);
    },
  );

  it('a socket that fails to open for another reason is logged at error with its stack, each time', async () => {
    const from = t.lines.length;
    await failOpensWithout(t, 'visitors', 'token_hash', () => StreamClient.open(visitorSocketUrl(base, widget.widget_id, visitorToken)), CLOSE_INTERNAL);
    expectTwoOpenErrors(socketLines(t.lines.slice(from)), 'visitor socket failed to open');
    clients.push(await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, visitorToken)));
  });
});
