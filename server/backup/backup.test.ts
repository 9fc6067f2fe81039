/**
 * Backup and restore (#33): an archive holds the database and the uploads
 * with a manifest (format, version, migration level, store, counts,
 * checksums); restore puts it into an empty target and the service then
 * serves exactly that: messages, login tokens, passwords, uploads. A
 * non-empty target is refused unless forced; a damaged, newer or foreign
 * archive is refused before anything is touched. On PostgreSQL the dump is
 * pg_dump's (a missing pg_dump is named), restored into another database and
 * schema name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp, type TestStore } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession } from '../../test/helpers/widget.js';
import { createBackup } from './createBackup.js';
import { FORMAT_VERSION, type Manifest } from './manifest.js';
import { ToolError } from './postgresTools.js';
import { restoreBackup, RestoreRefused } from './restoreBackup.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A target to restore into: a new DATA_DIR, and on PostgreSQL a new database with another schema name. */
async function freshTarget(): Promise<TestStore & { url: string | null }> {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restore-')), 'data');
  if (testDialect() !== 'postgres') {
    return { env: { DATA_DIR: dataDir }, url: null, cleanup: async () => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }) };
  }
  const dbName = `restore_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_SCHEMA: `r_${crypto.randomBytes(4).toString('hex')}` },
    url,
    cleanup: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

const targetOf = (s: TestStore) => ({ dataDir: s.env.DATA_DIR, databaseUrl: s.env.DATABASE_URL ?? null, databaseSchema: s.env.DATABASE_SCHEMA ?? null });

describe('backup and restore', () => {
  let t: TestApp;
  let work: string;
  let archive: string;
  let fileUrl: string;
  let chatId: number;
  let agentToken: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backups-'));
    t = await createTestApp({ workers: false });
    const channel = await createChatChannel(t);
    for (let i = 0; i < 5; i++) expect((await postInbound(t, channel, textMessage(`sender-${i % 2}`, `inbound ${i}`))).statusCode).toBe(200);
    const widget = await createWidget(t);
    const s = await startSession(t, widget.widget_id);
    chatId = (await sendText(t, widget.widget_id, s.visitor_token, 'send me the invoice')).chat_id;
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/uploads`,
      headers: { ...bearer(t.adminToken), 'content-type': 'application/pdf', 'x-file-name': 'invoice.pdf' },
      payload: PDF,
    });
    expect(up.statusCode).toBe(200);
    const file = up.json<{ file: string; type: string; file_name: string; file_size: number }>();
    fileUrl = new URL(file.file).pathname;
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/messages`,
      headers: bearer(t.adminToken),
      payload: { ...file, text: 'here' },
    });
    expect(sent.statusCode).toBe(201);
    agentToken = t.adminToken;
    archive = path.join(work, 'parley.tar.gz');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const counts = async (app: TestApp) => ({
    chats: (await app.app.ctx.db.selectFrom('chats').select('id').execute()).length,
    messages: (await app.app.ctx.db.selectFrom('messages').select('id').execute()).length,
  });

  it('writes one archive with a manifest, the database and the uploads', async () => {
    const done = await createBackup(t.config, archive);
    expect(done.file).toBe(archive);
    expect(done.size).toBe(fs.statSync(archive).size);
    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => entries.push(e.path) });
    const dbEntry = testDialect() === 'postgres' ? 'database/parley.pgdump' : 'database/parley.db';
    expect(entries[0]).toBe('manifest.json');
    expect(entries).toContain(dbEntry);
    expect(entries.filter((e) => e.startsWith('uploads/'))).toHaveLength(1);
    const m: Manifest = done.manifest;
    expect(m).toMatchObject({ format: 'parley-backup', format_version: FORMAT_VERSION, parley_version: '0.1.0', store: testDialect() });
    expect(m.migrations).toContain('051_backup_runs');
    expect(m.counts).toMatchObject({ ...(await counts(t)), uploads: 1, agents: 1 });
    expect(m.files.map((f) => f.path).sort()).toEqual(entries.filter((e) => e !== 'manifest.json').sort());
    expect(m.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
  });

  it('restores into an empty target; the service then serves the same data, tokens and uploads', async () => {
    const target = await freshTarget();
    try {
      const done = await restoreBackup(targetOf(target), archive);
      expect(done.manifest.counts.messages).toBe((await counts(t)).messages);
      const r = await createTestApp({ store: target, workers: false });
      try {
        expect(await counts(r)).toEqual(await counts(t));
        // The login token issued before the backup still works, and the password too (createTestApp signed in with it).
        const me = await r.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(agentToken) });
        expect(me.statusCode).toBe(200);
        const before = await t.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(agentToken) });
        const after = await r.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(agentToken) });
        expect(after.statusCode).toBe(200);
        expect(after.json()).toEqual(before.json());
        // The VAPID key pair is in the backup: restored, the devices subscribed before keep receiving pushes.
        const key = async (app: TestApp) => (await app.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key', headers: bearer(agentToken) })).json();
        expect(await key(r)).toEqual(await key(t));
        const served = await r.app.inject({ method: 'GET', url: fileUrl });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(PDF)).toBe(true);
      } finally {
        await r.close();
      }
      // Now it is not empty: refused, unless --force.
      await expect(restoreBackup(targetOf(target), archive)).rejects.toThrow(/not empty.*--force/);
      await restoreBackup(targetOf(target), archive, { force: true });
    } finally {
      await target.cleanup();
    }
  });

  it('refuses a damaged, truncated, newer or foreign archive before touching the target', async () => {
    const target = await freshTarget();
    try {
      const bytes = fs.readFileSync(archive);
      const truncated = path.join(work, 'truncated.tar.gz');
      fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      await expect(restoreBackup(targetOf(target), truncated)).rejects.toThrow(RestoreRefused);

      // Re-packed with one file changed but the manifest as it was: the checksum catches it.
      const unpacked = path.join(work, 'unpacked');
      fs.mkdirSync(unpacked);
      await tar.extract({ file: archive, cwd: unpacked });
      const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
      const upload = manifest.files.find((f) => f.path.startsWith('uploads/'))?.path as string;
      fs.writeFileSync(path.join(unpacked, upload), Buffer.concat([PDF, Buffer.from('x')]));
      const tampered = path.join(work, 'tampered.tar.gz');
      await tar.create({ file: tampered, gzip: true, cwd: unpacked }, ['manifest.json', ...manifest.files.map((f) => f.path)]);
      await expect(restoreBackup(targetOf(target), tampered)).rejects.toThrow(/does not match its checksum/);

      fs.writeFileSync(path.join(unpacked, upload), PDF);
      fs.writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, format_version: FORMAT_VERSION + 1, parley_version: '9.0.0' }));
      const newer = path.join(work, 'newer.tar.gz');
      await tar.create({ file: newer, gzip: true, cwd: unpacked }, ['manifest.json', ...manifest.files.map((f) => f.path)]);
      await expect(restoreBackup(targetOf(target), newer)).rejects.toThrow(/newer Parley \(9\.0\.0/);

      fs.writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, migrations: [...manifest.migrations, '099_future'] }));
      const ahead = path.join(work, 'ahead.tar.gz');
      await tar.create({ file: ahead, gzip: true, cwd: unpacked }, ['manifest.json', ...manifest.files.map((f) => f.path)]);
      await expect(restoreBackup(targetOf(target), ahead)).rejects.toThrow(/migration level.*099_future/);

      const other =
        testDialect() === 'postgres' ? { ...targetOf(target), databaseUrl: null } : { ...targetOf(target), databaseUrl: PG_URL, databaseSchema: 'nowhere_x' };
      await expect(restoreBackup(other, archive)).rejects.toThrow(testDialect() === 'postgres' ? /holds a PostgreSQL dump/ : /holds a SQLite database/);

      await expect(restoreBackup(targetOf(target), path.join(work, 'missing.tar.gz'))).rejects.toThrow(/no backup archive/);
      // Nothing was written into the target.
      expect(fs.existsSync(target.env.DATA_DIR)).toBe(false);
      if (target.url) {
        const c = new pg.Client({ connectionString: target.url });
        await c.connect();
        const { rowCount } = await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [target.env.DATABASE_SCHEMA]);
        await c.end();
        expect(rowCount).toBe(0);
      }
    } finally {
      await target.cleanup();
    }
  });

  it.runIf(testDialect() === 'postgres')('names pg_dump when it is not on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const err = await createBackup(t.config, path.join(work, 'nopg.tar.gz')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ToolError);
      expect((err as Error).message).toMatch(/pg_dump was not found on PATH/);
    } finally {
      process.env.PATH = saved;
    }
    expect(fs.existsSync(path.join(work, 'nopg.tar.gz'))).toBe(false);
  });
});
