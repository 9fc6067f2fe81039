/**
 * Mails about the deployment itself, to the administrators: a scheduled
 * backup that failed (server/backup/scheduled.ts), each in its admin's
 * language (`lang`). Pure: the data in, subject + text + HTML out.
 */
import { renderMail, type MailContent } from '../compose.js';
import { say } from './agentTexts/index.js';

export function backupFailedMail(d: { accountName: string; publicUrl: string; startedAt: string; dir: string; error: string }, lang = 'en'): MailContent {
  return renderMail({
    subject: say(lang, 'backupSubject'),
    heading: say(lang, 'backupHeading'),
    accountName: d.accountName,
    lang,
    blocks: [
      {
        kind: 'rows',
        rows: [
          [say(lang, 'labelStarted'), d.startedAt],
          [say(lang, 'labelDirectory'), d.dir],
        ],
      },
      { kind: 'quote', text: d.error },
      { kind: 'p', text: say(lang, 'backupAdvice') },
      { kind: 'link', label: say(lang, 'backupButton'), url: `${d.publicUrl}/admin/system` },
    ],
  });
}
