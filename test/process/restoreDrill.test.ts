/**
 * The restore drill (#33), on the real processes: `npm start` takes a steady
 * inbound chat-channel load; `npm run backup -- <file>` runs beside it
 * without stalling it; the server stops; `npm run restore -- <file>` puts the
 * archive into a new DATA_DIR (PostgreSQL: a new database and schema) and
 * refuses to do it twice; `npm start` on it then holds every message that was
 * answered 200 before the backup began, passes PRAGMA integrity_check
 * (SQLite), lets the administrator sign in with its password and its old
 * token, and serves the upload. Runs on SQLite and on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, type TestStore } from '../helpers/testApp.js';
import { assertBuilt, freePort, killAll, repoRoot, startServer } from './serverProcess.js';

const EMAIL = 'owner@example.com';
const PASSWORD = 'drill-password-1';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function call(base: string, method: string, url: string, o: { token?: string; body?: unknown; raw?: Buffer; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.raw) headers['content-type'] = o.type ?? 'application/octet-stream';
  const res = await fetch(`${base}${url}`, { method, headers, body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown> };
}

/** A target for the restore: a new DATA_DIR; on PostgreSQL also a new database, with another schema name. */
async function newTarget(): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-drill-'));
  const env: Record<string, string> = { DATA_DIR: path.join(dir, 'data') };
  let dbName: string | null = null;
  if (process.env.TEST_DB === 'postgres') {
    dbName = `drill_${crypto.randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    env.DATABASE_URL = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
    env.DATABASE_SCHEMA = `drill_${crypto.randomBytes(4).toString('hex')}`;
  }
  return {
    env,
    cleanup: async () => {
      if (dbName) {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function messageTexts(env: Record<string, string>): Promise<Set<string>> {
  if (env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    try {
      const { rows } = await c.query<{ text: string | null }>(`SELECT text FROM "${env.DATABASE_SCHEMA}".messages`);
      return new Set(rows.map((r) => r.text ?? ''));
    } finally {
      await c.end();
    }
  }
  const db = new SqliteDatabase(path.join(env.DATA_DIR, 'parley.db'), { readonly: true });
  try {
    return new Set((db.prepare('SELECT text FROM messages').all() as Array<{ text: string | null }>).map((r) => r.text ?? ''));
  } finally {
    db.close();
  }
}

describe('restore drill (npm run backup under load, npm run restore, npm start)', () => {
  const stores: TestStore[] = [];
  let customer: http.Server;
  let hook: string;

  beforeAll(async () => {
    assertBuilt();
    customer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}'));
    });
    await new Promise<void>((r) => customer.listen(0, '127.0.0.1', r));
    hook = `http://127.0.0.1:${(customer.address() as AddressInfo).port}/hook`;
    return () => new Promise<void>((r) => customer.close(() => r()));
  });

  afterEach(async () => {
    await killAll();
    for (const store of stores.splice(0)) await store.cleanup();
  });

  it('restores everything answered before the backup began, with tokens and uploads', { timeout: 180_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const common = { PUBLIC_URL: base, ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' };
    const env = { ...store.env, ...common, PORT: String(port) };
    const server = startServer(env);
    await server.waitReady();

    const token = (await call(base, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } })).json.token as string;
    expect(token).toBeTruthy();
    const channel = (
      await call(base, 'POST', '/api/v1/channels', { token, body: { type: 'chat_api', name: 'Drill', webhook_url: hook, chunked: false, agent_ids: [] } })
    ).json;
    const inbound = new URL(channel.endpoint_url as string).pathname;
    expect((await call(base, 'POST', inbound, { body: { sender: { id: 'file-sender' }, message: { type: 'text', text: 'first' } } })).status).toBe(200);
    const chats = (await call(base, 'GET', '/api/v1/chats', { token })).json as unknown as Array<{ id: number }>;
    const chatId = chats[0]?.id;
    expect(chatId).toBeTypeOf('number');
    const up = await call(base, 'POST', `/api/v1/chats/${chatId}/uploads`, { token, raw: PDF, type: 'application/pdf' });
    expect(up.status).toBe(200);
    const fileUrl = new URL(up.json.file as string).pathname;
    expect((await call(base, 'POST', `/api/v1/chats/${chatId}/messages`, { token, body: { ...up.json, text: 'the file' } })).status).toBe(201);

    // Steady inbound load: four senders, one message after another each.
    const answered: Array<{ text: string; at: number; ms: number }> = [];
    let failures = 0;
    let loading = true;
    let n = 0;
    const sender = async (s: number): Promise<void> => {
      while (loading) {
        const text = `load ${s}-${n++}`;
        const started = Date.now();
        const res = await call(base, 'POST', inbound, { body: { sender: { id: `sender-${s}` }, message: { type: 'text', text } } }).catch(() => null);
        if (res?.status === 200) answered.push({ text, at: Date.now(), ms: Date.now() - started });
        else failures++;
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(sender));
    await new Promise((r) => setTimeout(r, 1500));

    const archive = path.join(os.tmpdir(), `parley-drill-${crypto.randomBytes(4).toString('hex')}.tar.gz`);
    stores.push({ env: {}, cleanup: async () => fs.rmSync(archive, { force: true }) });
    const backupBegan = Date.now();
    const answeredBefore = answered.filter((a) => a.at < backupBegan).map((a) => a.text);
    const backup = await npmRun('backup', [archive], env);
    const backupEnded = Date.now();
    await new Promise((r) => setTimeout(r, 500));
    loading = false;
    await load;

    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backup written: ${archive}`);
    expect(backup.stdout).toMatch(new RegExp(`size: +.*\\(${fs.statSync(archive).size} bytes\\)`));
    expect(backup.stdout).toMatch(/chats: +\d+/);
    expect(backup.stdout).toMatch(/messages: +\d+/);
    expect(failures).toBe(0);
    expect(answeredBefore.length).toBeGreaterThan(20);
    // The server went on answering while the backup ran, without stalling.
    const during = answered.filter((a) => a.at > backupBegan && a.at < backupEnded);
    expect(during.length).toBeGreaterThan(0);
    expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(2000);

    server.signalGroup('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const target = await newTarget();
    stores.push(target);
    const restoreEnv = { ...target.env, ...common };
    const restored = await npmRun('restore', [archive], restoreEnv);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Restored');
    const again = await npmRun('restore', [archive], restoreEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty.*--force/);

    if (!target.env.DATABASE_URL) {
      const db = new SqliteDatabase(path.join(target.env.DATA_DIR, 'parley.db'), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
    const texts = await messageTexts(target.env);
    const missing = answeredBefore.filter((t) => !texts.has(t));
    expect(missing).toEqual([]);
    expect(texts.has('first')).toBe(true);

    const port2 = await freePort();
    const base2 = `http://127.0.0.1:${port2}`;
    const second = startServer({ ...restoreEnv, PORT: String(port2), PUBLIC_URL: base2 });
    await second.waitReady();
    expect((await call(base2, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } })).status).toBe(200);
    expect((await call(base2, 'GET', '/api/v1/me', { token })).status).toBe(200);
    // The restore is in the restored audit log, by the command line (no agent).
    const audit = (await call(base2, 'GET', '/api/v1/audit', { token })).json as unknown as Array<{ action: string; agent: unknown }>;
    expect(audit[0]).toMatchObject({ action: 'backup.restored', agent: null });
    const file = await fetch(`${base2}${fileUrl}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    second.signalGroup('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
