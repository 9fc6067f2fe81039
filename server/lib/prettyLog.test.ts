/** LOG_FORMAT=pretty: the request line and other lines made readable, and what the real app writes through it. */
import { describe, expect, it, vi } from 'vitest';
import { freshStore } from '../../test/helpers/testApp.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import { prettyLine } from './prettyLog.js';

describe('pretty log lines', () => {
  it('writes a request as method, redacted path, status and time, with its id', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 11, 2, 9, 5, 7, 123),
        reqId: 'req-1',
        req: { method: 'GET', url: '/api/v1/stream?token=[redacted]', remoteAddress: '127.0.0.1' },
        res: { statusCode: 101 },
        responseTime: 3.14159,
        msg: 'request completed',
      }),
    );
    expect(line).toBe('09:05:07.123 INFO  GET /api/v1/stream?token=[redacted] 101 3.1 ms  reqId=req-1\n');
  });

  it('writes other lines as the message and their fields, an error with its stack below', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'delivery failed',
        delivery: 7,
        url: 'https://x.example/a b',
        err: { message: 'boom', stack: 'Error: boom\n  at f' },
      }),
    );
    expect(line).toBe('00:00:00.000 ERROR delivery failed  delivery=7 url="https://x.example/a b"\n    Error: boom\n      at f\n');
    expect(prettyLine('not json')).toBe('not json\n');
  });

  it('is what the app writes with LOG_FORMAT=pretty: one line per request', async () => {
    const written: string[] = [];
    const store = freshStore();
    const config = loadConfig({ ...store.env, LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    expect(config.logFormat).toBe('pretty');
    // No logger given: the app makes its own from the configuration, on standard output.
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const app = await buildApp({ config, workers: false });
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'pretty-1' } });
      const mine = written.filter((l) => l.includes('reqId=pretty-1'));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/healthz 200 \d+\.\d ms {2}reqId=pretty-1\n$/);
    } finally {
      stdout.mockRestore();
      await app.close();
      await store.cleanup();
    }
  });
});
