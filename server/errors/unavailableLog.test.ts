/**
 * The outage log, with a hand-moved clock and timer: the first 503 of an
 * outage is logged with its error, later ones are summed up at most once per
 * interval, a quiet interval ends the outage (one info line), and the next
 * 503 starts a new one. The same per source (a worker's polls, sockets that
 * fail to open), each with its own count and lines that name it; report()
 * sends only the database-unavailable errors there, anything else stays at
 * error with its stack.
 */
import { describe, expect, it } from 'vitest';
import { isUnavailable, UnavailableLog, type Schedule, type UnavailableSource } from './unavailableLog.js';

interface Line {
  level: 'warn' | 'info' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

function setup(intervalMs = 10_000) {
  let now = 1_000_000;
  const lines: Line[] = [];
  const requestLines: Line[] = [];
  const pending: Array<{ fn: () => void; at: number; cancelled: boolean }> = [];
  const logger = (into: Line[]) => ({
    warn: (obj: Record<string, unknown>, msg: string) => void into.push({ level: 'warn', obj, msg }),
    info: (obj: Record<string, unknown>, msg: string) => void into.push({ level: 'info', obj, msg }),
    error: (obj: Record<string, unknown>, msg: string) => void into.push({ level: 'error', obj, msg }),
  });
  const schedule: Schedule = (fn, ms) => {
    const entry = { fn, at: now + ms, cancelled: false };
    pending.push(entry);
    return () => (entry.cancelled = true);
  };
  const log = new UnavailableLog({ log: logger(lines) as never, clock: () => now, intervalMs, schedule });
  /** Moves the clock, running the timers that fall due on the way. */
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = pending.filter((p) => !p.cancelled && p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      next.cancelled = true;
      now = next.at;
      next.fn();
    }
    now = until;
  };
  const armed = () => pending.filter((p) => !p.cancelled).length;
  return { log, lines, requestLog: logger(requestLines) as never, requestLines, advance, armed };
}

const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });

describe('UnavailableLog', () => {
  it("logs the first 503 of an outage at warn with its error, on the request's logger", () => {
    const t = setup();
    t.log.failed(down, t.requestLog);
    expect(t.requestLines).toEqual([{ level: 'warn', obj: { err: down }, msg: expect.stringMatching(/^database unavailable: answering 503/) }]);
    expect(t.lines).toEqual([]);
  });

  it('sums up the 503s that follow in one line per interval, however many there are', () => {
    const t = setup();
    t.log.failed(down, t.requestLog);
    for (let i = 0; i < 480; i++) {
      t.advance(10);
      t.log.failed(i < 479 ? down : cancelled, t.requestLog);
    }
    expect(t.requestLines).toHaveLength(1);
    expect(t.lines).toEqual([]);
    t.advance(10_000 - 4800);
    expect(t.lines).toEqual([
      {
        level: 'warn',
        obj: { requests: 480, seconds: 10, lastError: '57014: canceling statement due to statement timeout' },
        msg: 'database unavailable: 480 requests answered 503 in the last 10 s',
      },
    ]);
    // Still failing: the next summary comes one interval later, not before.
    t.log.failed(down);
    t.log.failed(down);
    t.advance(9_999);
    expect(t.lines).toHaveLength(1);
    t.advance(1);
    expect(t.lines[1]).toMatchObject({
      level: 'warn',
      obj: { requests: 2, seconds: 10 },
      msg: 'database unavailable: 2 requests answered 503 in the last 10 s',
    });
  });

  it('says once when a whole interval passes without a 503, and starts over at the next one', () => {
    const t = setup(5000);
    t.log.failed(down, t.requestLog);
    t.advance(1000);
    t.log.failed(down);
    t.advance(4000);
    expect(t.lines).toHaveLength(1);
    t.advance(5000);
    expect(t.lines[1]).toEqual({
      level: 'info',
      obj: { requests: 2, since: new Date(1_000_000).toISOString() },
      msg: `database available again: no request answered 503 in the last 5 s; 2 did since ${new Date(1_000_000).toISOString()}`,
    });
    expect(t.armed()).toBe(0);
    t.advance(60_000);
    expect(t.lines).toHaveLength(2);
    t.log.failed(cancelled, t.requestLog);
    expect(t.requestLines).toHaveLength(2);
    expect(t.requestLines[1]).toMatchObject({ level: 'warn', obj: { err: cancelled } });
  });

  it('a single 503 gets its own line and, one interval later, the all-clear; nothing more', () => {
    const t = setup();
    t.log.failed(down, t.requestLog);
    t.advance(10_000);
    expect(t.lines).toEqual([expect.objectContaining({ level: 'info', obj: { requests: 1, since: expect.any(String) } })]);
    t.advance(100_000);
    expect(t.lines).toHaveLength(1);
  });

  it('logs nothing after close() and leaves no timer behind', () => {
    const t = setup();
    t.log.failed(down, t.requestLog);
    t.log.failed(down);
    t.log.close();
    expect(t.armed()).toBe(0);
    t.advance(60_000);
    expect(t.lines).toEqual([]);
  });

  it('keeps one outage per source: each opens with its own warn line and is summed up and closed on its own, named', () => {
    const t = setup();
    const polls: UnavailableSource = { name: 'deliverer', first: 'claiming due deliveries failed', unit: ['poll', 'polls'], verb: 'failed' };
    const opens: UnavailableSource = { name: 'stream', first: 'stream failed to open', unit: ['stream', 'streams'], verb: 'failed to open' };
    t.log.failed(down, t.requestLog, polls);
    t.log.failed(down, t.requestLog, opens, { visitor: 7 });
    t.log.failed(down, t.requestLog);
    expect(t.requestLines).toEqual([
      {
        level: 'warn',
        obj: { source: 'deliverer', err: down },
        msg: 'deliverer: database unavailable: claiming due deliveries failed; further failures are counted and logged at most once per 10 s',
      },
      {
        level: 'warn',
        obj: { source: 'stream', visitor: 7, err: down },
        msg: 'stream: database unavailable: stream failed to open; further failures are counted and logged at most once per 10 s',
      },
      { level: 'warn', obj: { err: down }, msg: 'database unavailable: answering 503; further 503s are counted and logged at most once per 10 s' },
    ]);
    // Ten polls (one a second), one stream; no request.
    for (let i = 0; i < 10; i++) {
      t.advance(900);
      t.log.failed(i < 9 ? down : cancelled, undefined, polls);
    }
    t.log.failed(down, undefined, opens);
    t.advance(1000);
    expect(t.lines).toEqual([
      {
        level: 'warn',
        obj: { source: 'deliverer', failures: 10, seconds: 10, lastError: '57014: canceling statement due to statement timeout' },
        msg: 'deliverer: database unavailable: 10 polls failed in the last 10 s',
      },
      {
        level: 'warn',
        obj: { source: 'stream', failures: 1, seconds: 10, lastError: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432' },
        msg: 'stream: database unavailable: 1 stream failed to open in the last 10 s',
      },
      {
        level: 'info',
        obj: { requests: 1, since: new Date(1_000_000).toISOString() },
        msg: `database available again: no request answered 503 in the last 10 s; 1 did since ${new Date(1_000_000).toISOString()}`,
      },
    ]);
    // The polls go on failing, the streams stop: only the streams' outage ends.
    t.log.failed(down, undefined, polls);
    t.advance(10_000);
    expect(t.lines.slice(3)).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'deliverer: database unavailable: 1 poll failed in the last 10 s' }),
      {
        level: 'info',
        obj: { source: 'stream', failures: 2, since: new Date(1_000_000).toISOString() },
        msg: `stream: database available again: no stream failed to open in the last 10 s; 2 did since ${new Date(1_000_000).toISOString()}`,
      },
    ]);
    t.advance(10_000);
    expect(t.lines[5]).toMatchObject({
      level: 'info',
      obj: { source: 'deliverer', failures: 12 },
      msg: expect.stringMatching(/^deliverer: database available again: no poll failed in the last 10 s; 12 did since /),
    });
    expect(t.armed()).toBe(0);
    // A new outage of a source opens with its warn line again.
    t.log.failed(down, t.requestLog, polls);
    expect(t.requestLines).toHaveLength(4);
    expect(t.requestLines[3]).toMatchObject({ level: 'warn', obj: { source: 'deliverer', err: down } });
  });

  it('sums a source up no more often than its own interval when it is longer (a worker that ticks slowly)', () => {
    const t = setup();
    const passes: UnavailableSource = { name: 'retention', first: 'retention pass failed', unit: ['pass', 'passes'], verb: 'failed', intervalMs: 600_000 };
    t.log.failed(down, t.requestLog, passes);
    expect(t.requestLines[0].msg).toBe(
      'retention: database unavailable: retention pass failed; further failures are counted and logged at most once per 600 s',
    );
    t.advance(300_000);
    t.log.failed(down, undefined, passes);
    t.advance(299_999);
    expect(t.lines).toEqual([]);
    t.advance(1);
    expect(t.lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'retention: database unavailable: 1 pass failed in the last 600 s' })]);
    t.advance(600_000);
    expect(t.lines[1]).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^retention: database available again: no pass failed in the last 600 s; 2 did since/),
    });
  });

  it('report(): a database-unavailable error goes to the outage log, any other stays at error (or the level given) with the error', () => {
    const t = setup();
    const polls: UnavailableSource = { name: 'deliverer', first: 'claiming due deliveries failed', unit: ['poll', 'polls'], verb: 'failed' };
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    for (let i = 0; i < 20; i++) t.log.report(down, polls, { log: t.requestLog, msg: 'deliverer: claiming due deliveries failed' });
    t.log.report(bug, polls, { log: t.requestLog, msg: 'deliverer: claiming due deliveries failed', fields: { deliveryId: 3 } });
    t.log.report(bug, polls, { log: t.requestLog, msg: 'presence check failed', level: 'warn' });
    t.log.report(cancelled, polls, { log: t.requestLog, msg: 'deliverer: claiming due deliveries failed' });
    expect(t.requestLines).toEqual([
      expect.objectContaining({ level: 'warn', obj: { source: 'deliverer', err: down } }),
      { level: 'error', obj: { deliveryId: 3, err: bug }, msg: 'deliverer: claiming due deliveries failed' },
      { level: 'warn', obj: { err: bug }, msg: 'presence check failed' },
    ]);
    t.advance(10_000);
    // The bugs are not counted as the outage's failures.
    expect(t.lines).toEqual([expect.objectContaining({ msg: 'deliverer: database unavailable: 20 polls failed in the last 10 s' })]);
  });

  it('isUnavailable(): connection failures, timeouts and shutdowns, not bugs or refusals', () => {
    const unavailable = [
      down,
      cancelled,
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
    ];
    for (const err of unavailable) expect(isUnavailable(err), String(err)).toBe(true);
    const other = [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('UNIQUE constraint failed: agents.email'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      null,
      'boom',
    ];
    for (const err of other) expect(isUnavailable(err), String(err)).toBe(false);
  });
});
