/**
 * A throw-away PostgreSQL server of the test's own (initdb in a temp dir, its
 * own port on 127.0.0.1, its socket in that dir), so a test can stop and start
 * PostgreSQL under a running Parley without touching the machine's cluster,
 * which the other test files use at the same time. Uses the binaries of the
 * installed cluster (/usr/lib/postgresql/<version>/bin); PostgreSQL refuses to
 * run as root, so they run as the `postgres` user when the test is root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../process/serverProcess.js';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl stop -m fast: sessions are terminated, as a restart of the service does. */
  stop(): void;
  /** pg_ctl start, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its files. Safe to call twice. */
  destroy(): void;
}

/** The bin directory of the newest installed PostgreSQL, or null when there is none. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin') : null;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const res = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${res.status}): ${res.stderr || res.stdout}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const pgCtl = (args: string[]): void => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let gone = false;
  const server: PrivatePostgres = {
    url,
    port,
    stop: () => pgCtl(['stop', '-m', 'fast', '-w', '-t', '30']),
    start: async () => {
      pgCtl(['start', '-w', '-t', '30', '-l', path.join(dir, 'log'), '-o', opts]);
      await waitAnswers(url);
    },
    destroy: () => {
      if (gone) return;
      gone = true;
      try {
        pgCtl(['stop', '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // not running
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (err) {
    server.destroy();
    throw err;
  }
  return server;
}

async function waitAnswers(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
