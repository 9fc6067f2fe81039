/**
 * The real app on a test store, like createTestApp(), but with its log lines
 * kept (level warn and up) and optional extra routes: for tests of what is
 * logged and answered when the database misbehaves.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, type App } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, type TestStore } from './testApp.js';

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string; code?: string; stack?: string };
  [key: string]: unknown;
}

export interface LoggedApp {
  app: App;
  lines: LogLine[];
  adminToken: string;
  /** GET /api/v1/me with the admin token: the status code. */
  me(): Promise<number>;
}

export async function loggedApp(
  store: TestStore,
  opts: { env?: Record<string, string>; workers?: boolean; routes?: (app: FastifyInstance) => void } = {},
): Promise<LoggedApp> {
  const lines: LogLine[] = [];
  const config = loadConfig({
    PUBLIC_URL: 'http://parley.test',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    OUTBOUND_ALLOW_PRIVATE: '1',
    TRUST_PROXY: '127.0.0.1',
    ...store.env,
    ...opts.env,
  });
  const app = await buildApp({
    config,
    workers: opts.workers ?? false,
    logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
    beforeRoutes: opts.routes,
  });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const adminToken = login.json().token as string;
  const me = async () => (await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(adminToken) })).statusCode;
  return { app, lines, adminToken, me };
}
