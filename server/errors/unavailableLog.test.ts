/**
 * The outage log, with a hand-moved clock and timer: the first 503 of an
 * outage is logged with its error, later ones are summed up at most once per
 * interval, a quiet interval ends the outage (one info line), and the next
 * 503 starts a new one.
 */
import { describe, expect, it } from 'vitest';
import { UnavailableLog, type Schedule } from './unavailableLog.js';

interface Line {
  level: 'warn' | 'info';
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
  it('logs the first 503 of an outage at warn with its error, on the request\'s logger', () => {
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
    expect(t.lines[1]).toMatchObject({ level: 'warn', obj: { requests: 2, seconds: 10 }, msg: 'database unavailable: 2 requests answered 503 in the last 10 s' });
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
});
