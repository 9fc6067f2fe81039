/**
 * Admin → System: scheduled backups (BACKUP_DIR, docs/DATA.md). The last
 * backup (when, how large, its result), a failure before it, and when the
 * next falls due; without BACKUP_DIR, how to turn them on.
 */
import { dateTime } from '../../format';
import type { BackupRun, SystemInfo } from '../../types';

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

function RunLine({ run, label }: { run: BackupRun; label: string }) {
  const failed = run.status === 'failed';
  return (
    <div className={failed ? 'notice paused' : 'card'} data-backup={run.status}>
      <p>
        <strong>{label}:</strong> {dateTime(run.started_at)} —{' '}
        {run.status === 'ok' ? (
          <>
            succeeded, {size(run.size_bytes)} ({run.chats ?? 0} chats, {run.messages ?? 0} messages)
          </>
        ) : failed ? (
          <strong>failed</strong>
        ) : (
          'running'
        )}
      </p>
      {run.file && <p className="muted small break">{run.file}</p>}
      {failed && run.error && <p className="error break">{run.error}</p>}
    </div>
  );
}

export function BackupStatus({ backups }: { backups: SystemInfo['backups'] }) {
  if (!backups.enabled) {
    return (
      <p className="muted" data-empty="backups">
        Scheduled backups are off: set BACKUP_DIR (and BACKUP_INTERVAL_HOURS, BACKUP_KEEP) and restart Parley to turn them on.{' '}
        <code>npm run backup -- &lt;file&gt;</code> takes one at any time.
      </p>
    );
  }
  return (
    <>
      <p>
        Every {backups.interval_hours === 1 ? 'hour' : `${backups.interval_hours} hours`} into <code className="break">{backups.dir}</code>, the last{' '}
        {backups.keep} kept.
      </p>
      {backups.last ? <RunLine run={backups.last} label="Last backup" /> : <p className="muted">No scheduled backup has been taken yet.</p>}
      {backups.last_failed && <RunLine run={backups.last_failed} label="Last failed backup" />}
      {backups.next_at !== null && (
        <p>
          <strong>Next backup:</strong> {dateTime(backups.next_at)}
        </p>
      )}
    </>
  );
}
