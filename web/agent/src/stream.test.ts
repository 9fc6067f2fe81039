/**
 * AgentStream's reconnects, driven through a fake WebSocket and fake timers
 * (the browser's globals stubbed): a reconnect resumes from the last cursor
 * and its `ready` is not `first`; a `reset` frame (the cursor expired on the
 * server) tells the app, and the `ready` after it is `first` again, so the
 * app reloads its lists, and its cursor is adopted even if lower.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentStream, type StreamHandlers } from './stream';

class FakeSocket {
  static readonly OPEN = 1;
  static opened: FakeSocket[] = [];
  readyState = FakeSocket.OPEN;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
  receive(frame: { type: string; data: unknown; cursor?: number }): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

describe('AgentStream', () => {
  let calls: string[];
  let handlers: StreamHandlers;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('location', { protocol: 'http:', host: 'parley.test' });
    vi.stubGlobal('window', {
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (id: ReturnType<typeof setTimeout>) => clearTimeout(id),
      setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
      clearInterval: (id: ReturnType<typeof setInterval>) => clearInterval(id),
    });
    calls = [];
    handlers = {
      onFrame: (f) => calls.push(`frame ${f.cursor}`),
      onReady: (first) => calls.push(`ready ${first}`),
      onReset: () => calls.push('reset'),
      onState: () => undefined,
      onUnauthorized: () => calls.push('unauthorized'),
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const last = (): FakeSocket => FakeSocket.opened[FakeSocket.opened.length - 1];
  const drop = (): void => {
    last().onclose?.({ code: 1006 });
    vi.advanceTimersByTime(60_000);
  };

  it('resumes from its cursor after a drop; that ready is not first', () => {
    const stream = new AgentStream(handlers);
    stream.start();
    expect(last().url).toBe('ws://parley.test/api/v1/stream');
    last().receive({ type: 'ready', data: { cursor: 5 } });
    last().receive({ type: 'message.created', data: {}, cursor: 6 });
    drop();
    expect(last().url).toBe('ws://parley.test/api/v1/stream?cursor=6');
    last().receive({ type: 'ready', data: { cursor: 6 } });
    expect(calls).toEqual(['ready true', 'frame 6', 'ready false']);
    stream.stop();
  });

  it('on reset tells the app, and the next ready is first (reload) with its cursor adopted', () => {
    const stream = new AgentStream(handlers);
    stream.start();
    last().receive({ type: 'ready', data: { cursor: 50 } });
    last().receive({ type: 'message.created', data: {}, cursor: 51 });
    drop();
    expect(last().url).toBe('ws://parley.test/api/v1/stream?cursor=51');
    last().receive({ type: 'reset', data: { reason: 'cursor_expired' } });
    last().receive({ type: 'ready', data: { cursor: 40 } }); // another database, say: lower than ours
    last().receive({ type: 'message.created', data: {}, cursor: 41 });
    expect(calls).toEqual(['ready true', 'frame 51', 'reset', 'ready true', 'frame 41']);
    expect(stream.lastCursor).toBe(41);
    stream.stop();
  });

  it('treats a reset for a cursor too far behind (the replay cap) like an expired one: the app reloads', () => {
    const stream = new AgentStream(handlers);
    stream.start();
    last().receive({ type: 'ready', data: { cursor: 50 } });
    drop();
    last().receive({ type: 'reset', data: { reason: 'too_far_behind' } });
    last().receive({ type: 'ready', data: { cursor: 2000 } });
    last().receive({ type: 'message.created', data: {}, cursor: 2001 });
    expect(calls).toEqual(['ready true', 'reset', 'ready true', 'frame 2001']);
    stream.stop();
  });
});
