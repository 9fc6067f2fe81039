/**
 * The bare baselines the chat channel is measured against, each its own
 * process on a free loopback port, on the same store as the Parley beside it:
 *   - rows: the straightforward correct endpoint (bench/rows-server.ts), the
 *     rows a chat message needs in one transaction per request;
 *   - search: the same with Parley's search indexes (ROWS_SEARCH=1): what
 *     the search of issue 20 costs such an endpoint;
 *   - single: one insert per request (bench/bare-server.ts), kept as a
 *     reference: the floor under which no endpoint on this machine can go.
 * On SQLite their files sit in the given directory; on PostgreSQL each has a
 * schema of its own, dropped by stop().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { dropPostgresSchema } from '../../server/db/database.js';
import { freePort, PG_URL, ROOT, type Db } from './server.js';

export type BaselineKind = 'rows' | 'search' | 'single';

export interface Baseline {
  kind: BaselineKind;
  /** Where the chat-channel bodies are POSTed. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const SCRIPTS: Record<BaselineKind, { file: string; path: string; env?: Record<string, string> }> = {
  rows: { file: 'bench/rows-server.ts', path: '/rows/1' },
  search: { file: 'bench/rows-server.ts', path: '/rows/1', env: { ROWS_SEARCH: '1' } },
  single: { file: 'bench/bare-server.ts', path: '/bare' },
};

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Starts one baseline and resolves once it prints "ready". */
export async function startBaseline(kind: BaselineKind, db: Db, dir: string, schemaPrefix: string | null): Promise<Baseline> {
  const port = await freePort();
  const schema = db === 'postgres' ? `${schemaPrefix ?? 'bench'}_${kind}` : null;
  const args = [String(port), dir, ...(schema ? [PG_URL, schema] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, SCRIPTS[kind].file), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...SCRIPTS[kind].env },
  });
  const ready = await new Promise<boolean>((resolve) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => line === 'ready' && resolve(true));
    child.once('exit', () => resolve(false));
  });
  if (!ready) throw new Error(`the ${kind} baseline exited before it was ready`);
  return {
    kind,
    url: `http://127.0.0.1:${port}${SCRIPTS[kind].path}`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
      if (schema) await dropPostgresSchema(PG_URL, schema).catch(() => undefined);
    },
  };
}
