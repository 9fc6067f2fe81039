/**
 * The deployment id (db/deploymentId.ts, docs/SECURITY.md §12): made once,
 * the same for every instance of the deployment however they start, carried by
 * a copy of the database, and refused when the stored value is not one it made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { openStore } from './database.js';
import { deploymentId } from './deploymentId.js';

describe(`deployment id (${testDialect()})`, () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  const storeConfig = (env: Record<string, string>) => ({
    databaseUrl: env.DATABASE_URL ?? null,
    databaseSchema: env.DATABASE_SCHEMA ?? null,
    dataDir: env.DATA_DIR,
  });

  it('is made once, 128 random bits in hex, and read the same ever after', async () => {
    t = await createTestApp();
    const first = await deploymentId(t.app.ctx.store);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(await deploymentId(t.app.ctx.store)).toBe(first);
    const rows = await t.app.ctx.db.selectFrom('deployment').selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('is the same for instances asking at once, and for another instance on the same database', async () => {
    t = await createTestApp();
    const other = await openStore(storeConfig(t.store.env));
    try {
      const ids = await Promise.all([...Array(6)].map((_, i) => deploymentId(i % 2 === 0 ? t!.app.ctx.store : other)));
      expect(new Set(ids).size).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('differs between two deployments', async () => {
    t = await createTestApp();
    const second = await createTestApp();
    try {
      expect(await deploymentId(t.app.ctx.store)).not.toBe(await deploymentId(second.app.ctx.store));
    } finally {
      await second.close();
    }
  });

  it.runIf(testDialect() === 'sqlite')('is carried by a backup of the database (SQLite online backup)', async () => {
    t = await createTestApp();
    const id = await deploymentId(t.app.ctx.store);
    const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-copy-'));
    try {
      const source = new SqliteDatabase(path.join(t.store.env.DATA_DIR, 'parley.db'), { readonly: true });
      await source.backup(path.join(copyDir, 'parley.db'));
      source.close();
      const restored = await openStore({ databaseUrl: null, databaseSchema: null, dataDir: copyDir });
      try {
        expect(await deploymentId(restored)).toBe(id);
      } finally {
        await restored.close();
      }
    } finally {
      fs.rmSync(copyDir, { recursive: true, force: true });
    }
  });

  it('refuses a stored value it did not make, rather than name Redis keys with it', async () => {
    t = await createTestApp();
    await deploymentId(t.app.ctx.store);
    await t.app.ctx.db.updateTable('deployment').set({ deployment_id: 'x}:events:1' }).execute();
    await expect(deploymentId(t.app.ctx.store)).rejects.toThrow(/not 32 hex digits/);
  });

  it('is made anew when its row is deleted (a copy run beside the original)', async () => {
    t = await createTestApp();
    const id = await deploymentId(t.app.ctx.store);
    await t.app.ctx.db.deleteFrom('deployment').execute();
    const fresh = await deploymentId(t.app.ctx.store);
    expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh).not.toBe(id);
  });
});
