/**
 * Before migrations change a SQLite database that has data, Parley backs it
 * up into DATA_DIR/backups/ by itself (#33): only when migrations are
 * pending, never for a new database; the archive is a restorable backup of
 * the state before the upgrade.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../backup/restoreBackup.js';
import { openStore } from './database.js';

describe.runIf(process.env.TEST_DB !== 'postgres')('the backup before migrations (SQLite)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-premig-'));
  const dataDir = path.join(root, 'data');
  const backups = path.join(dataDir, 'backups');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const config = { dataDir, databaseUrl: null, databaseSchema: null };

  it('takes none for a new database, nor when nothing is pending', async () => {
    await (await openStore(config)).close();
    await (await openStore(config)).close();
    expect(fs.existsSync(backups) ? fs.readdirSync(backups) : []).toEqual([]);
  });

  it('takes one before applying pending migrations to a database with data', async () => {
    // The database as an older Parley left it: one migration not yet applied, an account in it.
    const raw = new SqliteDatabase(path.join(dataDir, 'parley.db'));
    raw.exec("DROP TABLE backup_runs; DELETE FROM kysely_migration WHERE name = '051_backup_runs'");
    raw.prepare("INSERT INTO accounts (name, created_at) VALUES ('Acme', 1)").run();
    raw.close();

    const store = await openStore(config);
    await store.close();
    const made = fs.readdirSync(backups);
    expect(made).toEqual([expect.stringMatching(/^parley-before-migrations-\d{8}T\d{6}Z\.tar\.gz$/)]);
    const archive = path.join(backups, made[0]);
    const unpacked = path.join(root, 'unpacked');
    fs.mkdirSync(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as { migrations: string[]; counts: { accounts: number } };
    expect(manifest.migrations).not.toContain('051_backup_runs');
    expect(manifest.migrations).toContain('050_inbound_dedup_retry');
    expect(manifest.counts.accounts).toBe(1);

    // It restores: the state before the upgrade, which the next start migrates again.
    const again = path.join(root, 'restored');
    await restoreBackup({ dataDir: again, databaseUrl: null, databaseSchema: null }, archive);
    const restored = new SqliteDatabase(path.join(again, 'parley.db'), { readonly: true });
    expect(restored.prepare("SELECT count(*) AS n FROM kysely_migration WHERE name = '051_backup_runs'").get()).toEqual({ n: 0 });
    restored.close();

    // The migrations ran: nothing pending now, so the next open takes no other.
    await (await openStore(config)).close();
    expect(fs.readdirSync(backups)).toHaveLength(1);
  });
});
