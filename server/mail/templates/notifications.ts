/**
 * The notification mails an account's notification addresses receive:
 * an offline message (Reply-To the visitor, so the business answers from
 * its mail client) and a callback request (with a link to the call in the
 * agent app), in `lang`, the language of the address (mailLanguages.ts).
 * Pure: the data in, subject + text + HTML out.
 */
import type { Call, Channel, OfflineMessage, Visitor } from '../../db/schema.js';
import type { MailContent } from '../compose.js';
import { mailTime, type MailScope } from '../recipients.js';
import { say } from './agentTexts/index.js';
import { notificationFooter, rowsMail } from './parts.js';

export function offlineMessageMail(
  scope: MailScope,
  publicUrl: string,
  d: { offline: OfflineMessage; channel: Pick<Channel, 'name'>; visitor: Pick<Visitor, 'number'> | null },
  lang = 'en',
): MailContent {
  const who = d.offline.name ?? d.offline.email ?? (d.visitor ? say(lang, 'visitorNumbered', { number: d.visitor.number }) : null);
  return rowsMail(
    {
      subject: who === null ? say(lang, 'offlineSubjectAnonymous') : say(lang, 'offlineSubject', { who }),
      heading: who === null ? say(lang, 'offlineHeadingAnonymous') : say(lang, 'offlineHeading', { who }),
      ...notificationFooter(scope, lang),
    },
    [
      [say(lang, 'labelName'), d.offline.name],
      [say(lang, 'labelEmail'), d.offline.email],
      [say(lang, 'labelPhone'), d.offline.phone],
      [say(lang, 'labelAbout'), d.offline.description],
      [say(lang, 'labelChannel'), d.channel.name],
      [say(lang, 'labelReceived'), mailTime(d.offline.created_at, scope.timezone, lang)],
    ],
    { kind: 'quote', text: d.offline.message },
    ...(d.offline.email ? [{ kind: 'p' as const, text: say(lang, 'offlineReply', { email: d.offline.email }) }] : []),
    { kind: 'link', label: say(lang, 'offlineButton'), url: `${publicUrl}/offline` },
  );
}

export function callbackRequestMail(
  scope: MailScope,
  publicUrl: string,
  d: { call: Call; channel: Pick<Channel, 'name'>; visitor: Pick<Visitor, 'number' | 'name'> | null; page: string | null },
  lang = 'en',
): MailContent {
  return rowsMail(
    {
      subject: say(lang, 'callbackSubject', { phone: d.call.phone }),
      heading: say(lang, 'callbackHeading', { who: d.visitor?.name ?? say(lang, 'someVisitor') }),
      ...notificationFooter(scope, lang),
    },
    [
      [say(lang, 'labelPhone'), d.call.phone],
      [say(lang, 'labelName'), d.visitor?.name],
      [say(lang, 'labelVisitor'), d.visitor ? `#${d.visitor.number}` : null],
      [say(lang, 'labelPage'), d.page],
      [say(lang, 'labelRequested'), mailTime(d.call.created_at, scope.timezone, lang)],
      [say(lang, 'labelChannel'), d.channel.name],
    ],
    { kind: 'link', label: say(lang, 'callbackButton'), url: `${publicUrl}/calls?call=${d.call.id}` },
  );
}
