/**
 * `npm run backup -- <file>`: one archive of everything Parley needs (the
 * database and the uploads; docs/DATA.md "Backup and restore"), taken while
 * the service runs, with the same environment as the service (DATA_DIR, or
 * DATABASE_URL and DATABASE_SCHEMA). SQLite is copied through its online
 * backup API, PostgreSQL through pg_dump from PATH (server/backup/).
 * Prints the file, its size and what it holds, and notes it in the audit log.
 * Exit codes: 0 written, 2 bad usage or configuration, 1 failed.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { BackupError, createBackup, type BackupDone } from '../backup/createBackup.js';
import { ToolError } from '../backup/postgresTools.js';
import { cliConfig } from './cliConfig.js';
import { auditCommand } from './auditCommand.js';

/** nice 10: below the server (0), as a background job. */
const BACKGROUND_PRIORITY = 10;

export function describeBackup(done: BackupDone): string {
  const c = done.manifest.counts;
  return (
    `Backup written: ${done.file}\n` +
    `  size:     ${formatBytes(done.size)} (${done.size} bytes)\n` +
    `  store:    ${done.manifest.store}${done.manifest.postgres_schema ? ` (schema ${done.manifest.postgres_schema})` : ''}, migration ${done.manifest.migrations.at(-1) ?? 'none'}\n` +
    `  chats:    ${c.chats}\n` +
    `  messages: ${c.messages}\n` +
    `  uploads:  ${c.uploads} file(s)\n` +
    `  agents:   ${c.agents}, visitors: ${c.visitors}\n`
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write('Usage: npm run backup -- <archive file to write, e.g. /var/backups/parley-2026-12-01.tar.gz>\n');
    process.exit(2);
  }
  const config = cliConfig();
  // Beside a server that takes traffic on the same machine, the copy and its compression yield the CPU to it.
  try {
    os.setPriority(BACKGROUND_PRIORITY);
  } catch {
    // not permitted: run at the normal priority
  }
  try {
    process.stdout.write(describeBackup(await createBackup(config, file)));
    await auditCommand(config, 'backup.taken');
  } catch (err) {
    if (err instanceof BackupError || err instanceof ToolError) {
      process.stderr.write(`Backup failed: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
