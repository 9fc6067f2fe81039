#!/usr/bin/env node
// npm test: the whole suite on SQLite, then on PostgreSQL.
// The PostgreSQL half needs TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// Outside CI it is skipped, loudly, when no server answers; with CI=true it is required.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ci = process.env.CI === 'true' || process.env.CI === '1';

async function postgresReachable() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (err) {
    console.error(`PostgreSQL at ${url} is not reachable: ${err.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const projects = ['sqlite'];
if (await postgresReachable()) projects.push('postgres');
else if (ci) {
  console.error('CI=true: the PostgreSQL half of the suite is required. Start PostgreSQL or set TEST_DATABASE_URL.');
  process.exit(1);
} else {
  console.error('\n*** WARNING: PostgreSQL is not reachable; running the SQLite half only. ***\n');
}

const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
process.exit(result.status ?? 1);
