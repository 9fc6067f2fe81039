/**
 * `npm run restore -- <file> [--force]`: an archive of `npm run backup` back
 * into an empty DATA_DIR (SQLite) or an empty PostgreSQL schema (DATABASE_URL,
 * DATABASE_SCHEMA; pg_restore from PATH) with its uploads. The archive is
 * checked whole (manifest, version, checksums, integrity) before anything is
 * touched; a target that is not empty is refused unless --force, which
 * replaces it. Run it with the service stopped; `npm start` then serves what
 * the backup held (server/backup/restoreBackup.ts, docs/DATA.md).
 * Exit codes: 0 restored, 2 bad usage or configuration, 1 refused or failed.
 */
import { pathToFileURL } from 'node:url';
import { ToolError } from '../backup/postgresTools.js';
import { restoreBackup, RestoreRefused } from '../backup/restoreBackup.js';
import { auditCommand } from './auditCommand.js';
import { cliConfig } from './cliConfig.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const files = args.filter((a) => a !== '--force');
  if (files.length !== 1 || files[0].startsWith('-')) {
    process.stderr.write('Usage: npm run restore -- <archive file> [--force]\n  --force  replace a DATA_DIR or schema that is not empty\n');
    process.exit(2);
  }
  const config = cliConfig();
  try {
    const done = await restoreBackup(config, files[0], { force });
    // Into the restored database: its audit log is the backup's, plus this line.
    await auditCommand(config, 'backup.restored');
    const c = done.manifest.counts;
    process.stdout.write(
      `Restored ${files[0]} into ${done.target}\n` +
        `  made:     ${done.manifest.created_at} by Parley ${done.manifest.parley_version}\n` +
        `  chats:    ${c.chats}\n  messages: ${c.messages}\n  uploads:  ${c.uploads} file(s)\n` +
        'Start Parley (npm start) to serve it.\n',
    );
  } catch (err) {
    if (err instanceof RestoreRefused || err instanceof ToolError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
