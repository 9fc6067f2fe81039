/**
 * pg_dump and pg_restore, the PostgreSQL client tools a backup and a restore
 * run from PATH: the connection given without its password on the command
 * line (a password file of libpq's, passfile=, in the caller's private
 * staging directory instead, so `ps` does not show it), the tool's own
 * message on a failure, and a clear one when the tool is not installed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

export class ToolError extends Error {}

/** The tools' --dbname: the URL without its password, which goes into a password file in `privateDir` (mode 0600). */
export async function connectionArg(url: string, privateDir: string): Promise<string> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  if (!password) return `--dbname=${url}`;
  u.password = '';
  const passfile = path.join(privateDir, '.pgpass');
  await fs.writeFile(passfile, `*:*:*:*:${password.replace(/[\\:]/g, (c) => `\\${c}`)}\n`, { mode: 0o600 });
  u.searchParams.set('passfile', passfile);
  return `--dbname=${u.toString()}`;
}

/** Runs a PostgreSQL client tool to its end; its stdout is returned, a non-zero exit is a ToolError with its stderr. */
export function runTool(tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(
        e.code === 'ENOENT'
          ? new ToolError(
              `${tool} was not found on PATH. Backups and restores on PostgreSQL run ${tool}: install the PostgreSQL client tools of your server's major version or newer (Debian/Ubuntu: apt-get install postgresql-client) and make sure ${tool} is on PATH.`,
            )
          : e,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new ToolError(`${tool} failed (exit ${String(code)}): ${err.trim() || 'no message'}`));
    });
  });
}
