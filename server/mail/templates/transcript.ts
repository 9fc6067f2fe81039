/**
 * Mails carrying a chat's transcript:
 * - the archive copy, sent to the account's `archive_email` when a chat
 *   finishes: the visitor's details, the contact_info of the chat_accepted
 *   answer, and every line, private notes marked;
 * - the visitor's copy ("E-mail me this conversation" in the widget): the
 *   lines the visitor saw, nothing else, and the confirmation link mailed
 *   first to an address the visitor has not proved yet; both in the
 *   widget's language.
 * - the missed-chat notification: no agent answered a chat within the
 *   account's missed_chat_minutes, or before it was finished
 *   (domain/chats/missedChat.ts), with what the visitor wrote.
 * Pure: the data in, subject + text + HTML out.
 */
import { renderMail, type MailContent } from '../compose.js';
import { mailTime, type MailScope } from '../recipients.js';
import type { ChatTranscript } from '../transcript.js';
import { say } from './agentTexts/index.js';
import { notificationFooter, rowsMail, visitorRows } from './parts.js';
import { minutesText } from './plural.js';
import { fill, visitorTexts } from './visitorTexts.js';

const differs = (value: string | undefined, shown: string | null | undefined): string | null => (value && value !== shown ? value : null);

/** In `lang`, the language of the archive address (mailLanguages.ts). */
export function archiveMail(scope: MailScope, publicUrl: string, t: ChatTranscript, lang = 'en'): MailContent {
  const who = t.visitor?.name ?? t.contact?.name ?? (t.visitor ? say(lang, 'visitorNumbered', { number: t.visitor.number }) : null);
  const title = who === null ? say(lang, 'archiveSubjectAnonymous', { id: t.chat.id }) : say(lang, 'archiveSubject', { id: t.chat.id, who });
  return rowsMail(
    { subject: title, heading: title, accountName: scope.accountName, lang },
    [
      ...visitorRows(lang, t.visitor),
      // The chat_accepted answer's contact_info, when it says more than the visitor's details now do.
      [say(lang, 'labelContactName'), differs(t.contact?.name, t.visitor?.name)],
      [say(lang, 'labelContactEmail'), differs(t.contact?.email, t.visitor?.email)],
      [say(lang, 'labelContactPhone'), differs(t.contact?.phone, t.visitor?.phone)],
      [say(lang, 'labelContactDescription'), t.contact?.description],
      [say(lang, 'labelChannel'), t.channelName],
      [say(lang, 'labelStarted'), mailTime(t.chat.created_at, scope.timezone, lang)],
      [say(lang, 'labelFinished'), t.chat.finished_at === null ? null : mailTime(t.chat.finished_at, scope.timezone, lang)],
      [say(lang, 'labelRating'), t.chat.rate],
    ],
    { kind: 'transcript', lines: t.lines },
    { kind: 'link', label: say(lang, 'openChat'), url: `${publicUrl}/chats/${t.chat.id}` },
  );
}

/** The visitor's copy, in the widget's language (`lang`, visitorTexts.ts). */
export function visitorTranscriptMail(scope: Pick<MailScope, 'accountName' | 'timezone'>, t: ChatTranscript, lang = 'en'): MailContent {
  const texts = visitorTexts(lang);
  const title = fill(texts.transcriptSubject, { account: scope.accountName });
  return renderMail({
    subject: title,
    heading: title,
    accountName: scope.accountName,
    lang,
    blocks: [
      { kind: 'p', text: fill(texts.transcriptIntro, { time: mailTime(t.chat.created_at, scope.timezone, lang) }) },
      { kind: 'transcript', lines: t.lines },
    ],
  });
}

/**
 * The link a visitor must open before a transcript goes to an address it has
 * not proved yet (domain/widget/mailTranscript.ts): mailed to that address,
 * in the widget's language.
 */
export function transcriptConfirmationMail(scope: Pick<MailScope, 'accountName'>, url: string, lang: string): MailContent {
  const texts = visitorTexts(lang);
  const account = { account: scope.accountName };
  return renderMail({
    subject: fill(texts.confirmSubject, account),
    heading: fill(texts.confirmSubject, account),
    accountName: scope.accountName,
    lang,
    blocks: [
      { kind: 'p', text: fill(texts.confirmIntro, account) },
      { kind: 'link', label: texts.confirmButton, url },
      { kind: 'p', text: texts.confirmNote },
    ],
  });
}

/** `minutes`: how long the chat waited for an answer (missedChat.ts waitedMinutes); in `lang`, the language of the address (mailLanguages.ts). */
export function missedChatMail(scope: MailScope, publicUrl: string, t: ChatTranscript, minutes: number, lang = 'en'): MailContent {
  const who = t.visitor?.name ?? (t.visitor ? say(lang, 'visitorNumbered', { number: t.visitor.number }) : say(lang, 'someVisitor'));
  // Missed by its finish (no agent had answered), not by the time it waited.
  const closed = t.chat.finished_at !== null && t.chat.missed_at === t.chat.finished_at;
  const counted = { who, n: minutes, minutes: minutesText(minutes, lang) };
  return rowsMail(
    {
      subject: say(lang, closed ? 'missedSubjectFinished' : 'missedSubjectWaiting', counted),
      heading: say(lang, closed ? 'missedHeadingFinished' : 'missedHeadingWaiting', counted),
      ...notificationFooter(scope, lang),
    },
    [
      ...visitorRows(lang, t.visitor),
      [say(lang, 'labelChannel'), t.channelName],
      [say(lang, 'labelStarted'), mailTime(t.chat.created_at, scope.timezone, lang)],
    ],
    { kind: 'transcript', lines: t.lines },
    { kind: 'link', label: say(lang, closed ? 'openChat' : 'answerChat'), url: `${publicUrl}/chats/${t.chat.id}` },
  );
}
