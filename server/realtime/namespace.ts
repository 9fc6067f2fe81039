/**
 * The Redis key prefix of one deployment. Instances of a deployment share one
 * database, so the prefix is derived from the database's identity: several
 * deployments (staging and production, or parallel test runs) can then share
 * one Redis without seeing each other's events or presence. The braces make
 * every key of a deployment hash to one Redis Cluster slot.
 *
 * PostgreSQL: cluster system identifier + database + schema (the host name is
 * left out on purpose: instances may reach one server by different names).
 * SQLite: the database file's real path (instances share one machine).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config/config.js';
import type { Store } from '../db/database.js';

export async function deploymentPrefix(store: Store, config: Pick<Config, 'dataDir'>): Promise<string> {
  const identity = store.dialect === 'postgres' ? await postgresIdentity(store) : `sqlite:${realDataDir(config.dataDir)}`;
  const digest = crypto.createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return `parley:{${digest}}:`;
}

async function postgresIdentity(store: Store): Promise<string> {
  const names = await sql<{ db: string; schema: string }>`select current_database() as db, current_schema() as schema`.execute(store.db);
  let system: string;
  try {
    // Readable by superusers and pg_monitor only, on some installations.
    const row = await sql<{ id: string }>`select system_identifier::text as id from pg_control_system()`.execute(store.db);
    system = row.rows[0]?.id ?? '';
  } catch {
    system = '';
  }
  const { db, schema } = names.rows[0] ?? { db: '', schema: '' };
  return `postgres:${system}:${db}:${schema}`;
}

function realDataDir(dataDir: string): string {
  try {
    return fs.realpathSync(dataDir);
  } catch {
    return path.resolve(dataDir);
  }
}
