/**
 * The notification mails an account's notification addresses receive:
 * an offline message (Reply-To the visitor, so the business answers from
 * its mail client) and a callback request (with a link to the call in the
 * agent app). Pure: the data in, subject + text + HTML out.
 */
import type { Call, Channel, OfflineMessage, Visitor } from '../../db/schema.js';
import { renderMail, type MailContent } from '../compose.js';
import { mailTime, type MailScope } from '../recipients.js';

export function offlineMessageMail(
  scope: MailScope,
  publicUrl: string,
  d: { offline: OfflineMessage; channel: Pick<Channel, 'name'>; visitor: Pick<Visitor, 'number'> | null },
): MailContent {
  const who = d.offline.name ?? d.offline.email ?? (d.visitor ? `Visitor ${d.visitor.number}` : 'a visitor');
  return renderMail({
    subject: `Offline message from ${who}`,
    heading: `New offline message from ${who}`,
    accountName: scope.accountName,
    settingsUrl: scope.settingsUrl,
    blocks: [
      {
        kind: 'rows',
        rows: [
          ['Name', d.offline.name],
          ['E-mail', d.offline.email],
          ['Phone', d.offline.phone],
          ['About', d.offline.description],
          ['Channel', d.channel.name],
          ['Received', mailTime(d.offline.created_at, scope.timezone)],
        ],
      },
      { kind: 'quote', text: d.offline.message },
      ...(d.offline.email ? [{ kind: 'p' as const, text: `Reply to this mail to answer ${d.offline.email} directly.` }] : []),
      { kind: 'link', label: 'Open the offline messages', url: `${publicUrl}/offline` },
    ],
  });
}

export function callbackRequestMail(
  scope: MailScope,
  publicUrl: string,
  d: { call: Call; channel: Pick<Channel, 'name'>; visitor: Pick<Visitor, 'number' | 'name'> | null; page: string | null },
): MailContent {
  return renderMail({
    subject: `Callback request: ${d.call.phone}`,
    heading: `${d.visitor?.name ?? 'A visitor'} asks to be called back`,
    accountName: scope.accountName,
    settingsUrl: scope.settingsUrl,
    blocks: [
      {
        kind: 'rows',
        rows: [
          ['Phone', d.call.phone],
          ['Name', d.visitor?.name],
          ['Visitor', d.visitor ? `#${d.visitor.number}` : null],
          ['Page', d.page],
          ['Requested', mailTime(d.call.created_at, scope.timezone)],
          ['Channel', d.channel.name],
        ],
      },
      { kind: 'link', label: 'Open the call', url: `${publicUrl}/calls?call=${d.call.id}` },
    ],
  });
}
