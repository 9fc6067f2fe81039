/**
 * Builds the real app for a test on the store chosen by TEST_DB: a fresh SQLite
 * file in a temp dir, or a fresh PostgreSQL schema dropped afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config/config.js';
import { dropPostgresSchema } from '../../server/db/database.js';
import type { Clock } from '../../server/lib/time.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password-1';

export const testDialect = (): 'sqlite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

export interface TestStore {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** A fresh, empty store for the current dialect, described as environment variables. */
export function freshStore(): TestStore {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let schema: string | null = null;
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (testDialect() === 'postgres') {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    env.DATABASE_URL = url;
    env.DATABASE_SCHEMA = schema;
  }
  return {
    env,
    cleanup: async () => {
      if (schema) await dropPostgresSchema(url, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: App;
  config: Config;
  store: TestStore;
  /** Bearer token of the bootstrap administrator. */
  adminToken: string;
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(opts: { env?: Record<string, string>; clock?: Clock; workers?: boolean; store?: TestStore } = {}): Promise<TestApp> {
  const store = opts.store ?? freshStore();
  const config = loadConfig({
    PUBLIC_URL: 'http://parley.test',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    OUTBOUND_ALLOW_PRIVATE: '1',
    // TEST_LOG=warn (or any level) shows the app's own log while a test runs; silent otherwise.
    LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
    // inject() and the tests' own sockets come from 127.0.0.1: X-Forwarded-For fakes a visitor's address.
    TRUST_PROXY: '127.0.0.1',
    ...store.env,
    ...opts.env,
  });
  const app = await buildApp({ config, clock: opts.clock, workers: opts.workers, logger: process.env.TEST_LOG ? undefined : false });
  const login = signIn(app);
  const adminToken = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
  return {
    app,
    config,
    store,
    adminToken,
    login,
    close: async () => {
      await app.close();
      if (!opts.store) await store.cleanup();
    },
  };
}

/** Signs in through the API of an app (its bearer token). */
export function signIn(app: App): (email: string, password: string) => Promise<string> {
  return async (email, password) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A request to the API as the test app's administrator (inject: no socket). */
export function asAdmin(t: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: bearer(t.adminToken), ...(payload ? { payload } : {}) });
}
