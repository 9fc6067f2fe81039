/**
 * The PostgreSQL part of a backup: pg_dump in its custom format, of Parley's
 * schema only. The counts and the migration level in the manifest come from
 * the very state pg_dump copies: a repeatable-read transaction exports its
 * snapshot and pg_dump runs on it (--snapshot). pg_dump's locks (ACCESS
 * SHARE) never block the server's reads and writes.
 */
import pg from 'pg';
import type { BackupCounts } from './manifest.js';
import { connectionArg, runTool } from './postgresTools.js';

export interface PostgresDumped {
  schema: string;
  counts: Omit<BackupCounts, 'uploads'>;
  migrations: string[];
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Dumps into `file`; `privateDir` (the backup's staging directory) holds the password file meanwhile. */
export async function dumpPostgres(url: string, schema: string | null, file: string, privateDir: string): Promise<PostgresDumped> {
  const target = schema ?? 'public';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0].id;
    const count = async (table: string): Promise<number> =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(target)}.${quote(table)}`)).rows[0].n);
    const counts = {
      accounts: await count('accounts'),
      agents: await count('agents'),
      visitors: await count('visitors'),
      chats: await count('chats'),
      messages: await count('messages'),
    };
    const migrations = (await client.query<{ name: string }>(`SELECT name FROM ${quote(target)}.kysely_migration ORDER BY timestamp, name`)).rows.map(
      (r) => r.name,
    );
    const dbname = await connectionArg(url, privateDir);
    await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--schema=${target}`, '--no-owner', '--no-privileges', `--file=${file}`, dbname]);
    await client.query('COMMIT');
    return { schema: target, counts, migrations };
  } finally {
    await client.end();
  }
}
