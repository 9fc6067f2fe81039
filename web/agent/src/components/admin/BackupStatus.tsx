/**
 * Admin → System: scheduled backups (BACKUP_DIR, docs/DATA.md). The last
 * backup (when, how large, its result), a failure before it, and when the
 * next falls due; without BACKUP_DIR, how to turn them on.
 */
import { formatDateTime, formatNumber, t, tn } from '../../i18n';
import type { BackupRunDto, SystemDto } from '../../../../../protocol/agent';
import { fillIn } from './fillIn';

/** The command that takes a backup by hand: code, the same in every language. */
const BACKUP_COMMAND = 'npm run backup -- <file>';

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
  return `${formatNumber(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${units[i]}`;
}

function RunLine({ run, label }: { run: BackupRunDto; label: string }) {
  const failed = run.status === 'failed';
  return (
    <div className={failed ? 'notice paused' : 'card'} data-backup={run.status}>
      <p>
        <strong>{t('admin.backup.runLabel', { label })}</strong> {formatDateTime(run.started_at)} —{' '}
        {run.status === 'ok' ? (
          t('admin.backup.succeeded', {
            size: size(run.size_bytes),
            chats: tn('admin.backup.chats', run.chats ?? 0),
            messages: tn('admin.backup.messages', run.messages ?? 0),
          })
        ) : failed ? (
          <strong>{t('admin.backup.failed')}</strong>
        ) : (
          t('admin.backup.running')
        )}
      </p>
      {run.file && <p className="muted small break">{run.file}</p>}
      {failed && run.error && <p className="error break">{run.error}</p>}
    </div>
  );
}

export function BackupStatus({ backups }: { backups: SystemDto['backups'] }) {
  if (!backups.enabled) {
    return (
      <p className="muted" data-empty="backups">
        {t('admin.backup.off')} {fillIn(t('admin.backup.offCommand'), { command: <code dir="ltr">{BACKUP_COMMAND}</code> })}
      </p>
    );
  }
  return (
    <>
      <p>
        {fillIn(tn('admin.backup.every', backups.interval_hours, { keep: backups.keep }), {
          dir: (
            <code dir="ltr" className="break">
              {backups.dir}
            </code>
          ),
        })}
      </p>
      {backups.last ? <RunLine run={backups.last} label={t('admin.backup.last')} /> : <p className="muted">{t('admin.backup.none')}</p>}
      {backups.last_failed && <RunLine run={backups.last_failed} label={t('admin.backup.lastFailed')} />}
      {backups.next_at !== null && (
        <p>
          <strong>{t('admin.backup.next')}</strong> {formatDateTime(backups.next_at)}
        </p>
      )}
    </>
  );
}
