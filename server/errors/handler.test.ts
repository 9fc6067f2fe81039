/**
 * The one error handler, on the real app: an unknown error answers 500
 * internal_error without internals and is logged with its request id; request
 * logs carry `reqId`; database outages answer 503 and are logged at warn, the
 * first with its error and the rest only counted; unknown routes 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshStore, type TestStore } from '../../test/helpers/testApp.js';
import { AppError } from './AppError.js';
import { errorRegistry } from './registry.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string; stack?: string };
  responseTime?: number;
}

const SECRET = 'password=hunter2 at /srv/parley/internal.ts';

describe('error handler and request logging', () => {
  let app: App;
  let store: TestStore;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    store = freshStore();
    const config = loadConfig({ ...store.env, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'info' });
    app = await buildApp({
      config,
      workers: false,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
      beforeRoutes: (a) => {
        a.get('/test/boom', async () => {
          throw new Error(`unexpected: ${SECRET}`);
        });
        a.get('/test/db-down', async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        });
        a.get('/test/conflict', async () => {
          throw new AppError('conflict', 'Already done.');
        });
      },
    });
  });

  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('answers an unknown error with 500 internal_error and no internals, and logs it with the request id', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/boom', headers: { 'x-request-id': 'req-boom-1' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'internal_error', message: errorRegistry.internal_error.message } });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toMatch(/stack|\/srv\//);
    expect(res.headers['x-request-id']).toBe('req-boom-1');

    const logged = lines.find((l) => l.level === 50 && l.reqId === 'req-boom-1');
    expect(logged, 'an error line with the request id').toBeDefined();
    expect(logged?.err?.message).toContain('hunter2');
    expect(logged?.err?.stack).toBeDefined();
  });

  it('logs one line per request, with its id, method, path, address, status and time, and makes an id up when the header is unusable', async () => {
    await app.inject({ method: 'GET', url: '/healthz?token=secret-1', headers: { 'x-request-id': 'req-health-1' } });
    const forRequest = lines.filter((l) => l.reqId === 'req-health-1');
    expect(forRequest.map((l) => l.msg)).toEqual(['request completed']);
    expect(forRequest[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/healthz?token=[redacted]', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(forRequest[0]?.responseTime).toBeTypeOf('number');

    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'not a valid id!' } });
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((l) => l.reqId === id && l.msg === 'request completed')).toBe(true);
  });

  it('answers a database outage with 503 service_unavailable', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/db-down' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('service_unavailable');
    expect(res.body).not.toContain('5432');
  });

  it('logs the 503s of an outage at warn, the first with its error, not one error line with a stack each', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `req-down-${i}`);
    for (const id of ids) expect((await app.inject({ method: 'GET', url: '/test/db-down', headers: { 'x-request-id': id } })).statusCode).toBe(503);
    // One line opened the outage (this test's first 503, or the previous test's), with the error.
    const opened = lines.filter((l) => l.level === 40 && /^database unavailable/.test(l.msg));
    expect(opened).toHaveLength(1);
    expect(opened[0].err?.message).toContain('ECONNREFUSED');
    const others = lines.filter((l) => l.reqId?.startsWith('req-down-') && l !== opened[0] && l.msg !== 'request completed');
    expect(others).toEqual([]);
  });

  it('answers an AppError with its registry status and sentence', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'conflict', message: 'Already done.' } });
  });

  it('answers an unknown route with 404 route_not_found', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'route_not_found', message: 'No route DELETE /api/v1/nothing-here.' } });
  });
});
