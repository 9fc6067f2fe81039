/**
 * Mails about the deployment itself, to the administrators: a scheduled
 * backup that failed (server/backup/scheduled.ts). Pure: the data in,
 * subject + text + HTML out.
 */
import { renderMail, type MailContent } from '../compose.js';

export function backupFailedMail(d: { accountName: string; publicUrl: string; startedAt: string; dir: string; error: string }): MailContent {
  return renderMail({
    subject: 'Parley: the scheduled backup failed',
    heading: 'The scheduled backup failed',
    accountName: d.accountName,
    blocks: [
      {
        kind: 'rows',
        rows: [
          ['Started', d.startedAt],
          ['Directory', d.dir],
        ],
      },
      { kind: 'quote', text: d.error },
      {
        kind: 'p',
        text: 'Until a backup succeeds, the last good one is older than planned. Fix the cause (disk space, permissions, pg_dump on PATH) and run npm run backup -- <file> to take one now; the next scheduled one runs at its time.',
      },
      { kind: 'link', label: 'Open Admin → System', url: `${d.publicUrl}/admin/system` },
    ],
  });
}
