/**
 * Upgrading from every earlier migration level (#35, docs/DEPLOY.md
 * "Upgrading"): for each level L but the last, a database is migrated exactly
 * up to L (Kysely's Migrator.migrateTo), given what a deployment holds at L
 * (test/upgrade/levelRows.ts writes it from the columns L has, so a new
 * migration is covered without editing anything here), and the current
 * Parley starts on it: it migrates to the latest, and everything is still
 * there, through the API as through the rows: the administrator signs in with
 * the password it had, the chat is listed and found by its text, its messages
 * read as written, the upload downloads byte for byte, the settings are kept.
 * A migration that breaks or loses old data fails here, naming the level.
 *
 * On both stores: a SQLite file per level, a PostgreSQL schema per level
 * (levels run a few at a time: see CONCURRENCY).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import { bearer, freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { AGENT, LEVELS, SAFE_URL, SqliteLadder, TEXTS, UPLOAD, databaseAt, writeRows, type SeededRow } from './levelRows.js';

const PUBLIC_URL = 'http://parley.test';
/**
 * PostgreSQL waits on its round trips: levels side by side finish sooner (measured on a loaded
 * 2-core machine: 101 s with 4, 78 s with 5, vitest's own cap per file). SQLite computes: one at a time.
 */
const CONCURRENCY = testDialect() === 'postgres' ? 5 : 1;
const LATEST = LEVELS.at(-1)!;

let started = 0;
let ladder: SqliteLadder | null = null;
beforeAll(() => {
  started = Date.now();
  if (testDialect() === 'sqlite') ladder = new SqliteLadder();
});
afterAll(async () => {
  await ladder?.close();
  console.info(`upgrade from ${LEVELS.length - 1} levels on ${testDialect()}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

describe.concurrent(`upgrading from every earlier migration level (${testDialect()})`, { concurrent: CONCURRENCY > 1 }, () => {
  it('has earlier levels to upgrade from', () => {
    expect(LEVELS.length).toBeGreaterThan(40);
  });

  it.each(LEVELS.slice(0, -1))('from %s', { timeout: 120_000 }, async (level) => {
    await withSlot(() => upgradeFrom(level));
  });
});

async function upgradeFrom(level: string): Promise<void> {
  const store = freshStore();
  let app: App | null = null;
  try {
    const seeded = await seed(store, level);
    app = await buildApp({
      config: loadConfig({ PUBLIC_URL, LOG_LEVEL: process.env.TEST_LOG ?? 'silent', OUTBOUND_ALLOW_PRIVATE: '1', ...store.env }),
      logger: process.env.TEST_LOG ? undefined : false,
    });
    await checkApi(app, level);
    await checkRows(app, seeded);
  } finally {
    await app?.close();
    await store.cleanup();
  }
}

/** The database at `level` with a deployment's rows, and the upload's file on disk. */
async function seed(store: TestStore, level: string): Promise<SeededRow[]> {
  const at = ladder ? await ladder.at(store.env.DATA_DIR, level) : await databaseAt(store.env, level);
  try {
    const seeded = await writeRows(at.db, testDialect(), store.env.DATABASE_SCHEMA ?? null, PUBLIC_URL);
    const dir = path.join(store.env.DATA_DIR, 'uploads');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, UPLOAD.name), UPLOAD.bytes);
    return seeded;
  } finally {
    await at.close();
  }
}

async function checkApi(app: App, level: string): Promise<void> {
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: AGENT.email, password: AGENT.password } });
  expect(login.statusCode, `sign-in after upgrading from ${level}: ${login.body}`).toBe(200);
  const auth = bearer(login.json<{ token: string }>().token);
  const get = async <T>(url: string): Promise<T> => {
    const res = await app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode, `GET ${url} after upgrading from ${level}: ${res.body}`).toBe(200);
    return res.json<T>();
  };

  expect(JSON.stringify(await get('/api/v1/version'))).toContain(LATEST);
  const me = await get<{ name: string; email: string; role: string }>('/api/v1/me');
  expect(me).toMatchObject({ name: AGENT.name, email: AGENT.email, role: 'admin' });

  const chats = await get<{ id: number; visitor?: { name?: string | null } }[]>('/api/v1/chats?status=active');
  expect(chats).toHaveLength(1);
  const chatId = chats[0].id;
  const chat = await get<{ messages: { author: string; type: string; text?: string | null; file?: string | null; file_name?: string | null }[] }>(
    `/api/v1/chats/${chatId}`,
  );
  expect(chat.messages.map((m) => [m.author, m.type, m.text ?? null])).toEqual([
    ['visitor', 'text', TEXTS.visitor],
    ['agent', 'text', TEXTS.agent],
    ['visitor', 'document', null],
  ]);
  const media = chat.messages[2];
  expect(media.file_name).toBe('contract.pdf');
  const found = await get<{ id: number }[]>(`/api/v1/chats/search?q=${encodeURIComponent('parcel')}`);
  expect(found.map((c) => c.id)).toEqual([chatId]);

  const fileUrl = new URL(media.file!);
  expect(fileUrl.pathname).toBe(`/widget/uploads/${UPLOAD.name}`);
  const download = await app.inject({ method: 'GET', url: fileUrl.pathname });
  expect(download.statusCode).toBe(200);
  expect(download.rawPayload.equals(UPLOAD.bytes)).toBe(true);

  const settings = await get<{ safe_url: string | null }>('/api/v1/settings');
  expect(settings.safe_url).toBe(SAFE_URL);
}

/** Every value written at the old level is still in its row, in every column the latest schema still has. */
async function checkRows(app: App, seeded: SeededRow[]): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = app.ctx.db as any;
  for (const row of seeded) {
    const [column, value] = Object.entries(row.where)[0];
    const now = (await db.selectFrom(row.table).selectAll().where(column, '=', value).executeTakeFirst()) as Record<string, unknown> | undefined;
    expect(now, `${row.key} (${row.table} ${column} = ${value}) is gone`).toBeDefined();
    const kept = Object.fromEntries(
      Object.keys(row.written)
        .filter((k) => k in now!)
        .map((k) => [k, now![k]]),
    );
    const written = Object.fromEntries(Object.keys(kept).map((k) => [k, row.written[k]]));
    expect(kept, `${row.key} (${row.table}) changed`).toEqual(written);
  }
}

/** At most CONCURRENCY levels at a time (vitest's own limit is per file, and higher). */
let running = 0;
const waiting: (() => void)[] = [];
async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
