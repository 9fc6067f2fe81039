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
import { minutesText } from './plural.js';
import { fill, visitorTexts } from './visitorTexts.js';

const differs = (value: string | undefined, shown: string | null | undefined): string | null => (value && value !== shown ? value : null);

export function archiveMail(scope: MailScope, publicUrl: string, t: ChatTranscript): MailContent {
  const who = t.visitor?.name ?? t.contact?.name ?? (t.visitor ? `Visitor ${t.visitor.number}` : 'a visitor');
  return renderMail({
    subject: `Chat #${t.chat.id} with ${who}`,
    heading: `Chat #${t.chat.id} with ${who}`,
    accountName: scope.accountName,
    blocks: [
      {
        kind: 'rows',
        rows: [
          ['Visitor', t.visitor ? `#${t.visitor.number}` : null],
          ['Name', t.visitor?.name],
          ['E-mail', t.visitor?.email],
          ['Phone', t.visitor?.phone],
          // The chat_accepted answer's contact_info, when it says more than the visitor's details now do.
          ['Contact name', differs(t.contact?.name, t.visitor?.name)],
          ['Contact e-mail', differs(t.contact?.email, t.visitor?.email)],
          ['Contact phone', differs(t.contact?.phone, t.visitor?.phone)],
          ['Contact description', t.contact?.description],
          ['Channel', t.channelName],
          ['Started', mailTime(t.chat.created_at, scope.timezone)],
          ['Finished', t.chat.finished_at === null ? null : mailTime(t.chat.finished_at, scope.timezone)],
          ['Rating', t.chat.rate],
        ],
      },
      { kind: 'transcript', lines: t.lines },
      { kind: 'link', label: 'Open the chat', url: `${publicUrl}/chats/${t.chat.id}` },
    ],
  });
}

/** The visitor's copy, in the widget's language (`lang`, visitorTexts.ts). */
export function visitorTranscriptMail(scope: Pick<MailScope, 'accountName' | 'timezone'>, t: ChatTranscript, lang = 'en'): MailContent {
  const say = visitorTexts(lang);
  const title = fill(say.transcriptSubject, { account: scope.accountName });
  return renderMail({
    subject: title,
    heading: title,
    accountName: scope.accountName,
    lang,
    blocks: [
      { kind: 'p', text: fill(say.transcriptIntro, { time: mailTime(t.chat.created_at, scope.timezone) }) },
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
  const say = visitorTexts(lang);
  const account = { account: scope.accountName };
  return renderMail({
    subject: fill(say.confirmSubject, account),
    heading: fill(say.confirmSubject, account),
    accountName: scope.accountName,
    lang,
    blocks: [
      { kind: 'p', text: fill(say.confirmIntro, account) },
      { kind: 'link', label: say.confirmButton, url },
      { kind: 'p', text: say.confirmNote },
    ],
  });
}

/** `minutes`: how long the chat waited for an answer (missedChat.ts waitedMinutes). */
export function missedChatMail(scope: MailScope, publicUrl: string, t: ChatTranscript, minutes: number): MailContent {
  const who = t.visitor?.name ?? (t.visitor ? `Visitor ${t.visitor.number}` : 'A visitor');
  // Missed by its finish (no agent had answered), not by the time it waited.
  const closed = t.chat.finished_at !== null && t.chat.missed_at === t.chat.finished_at;
  return renderMail({
    subject: closed ? `Missed chat: ${who}'s chat was finished unanswered` : `Missed chat: ${who} waited ${minutes} min`,
    heading: closed
      ? `${who}'s chat was finished after ${minutesText(minutes)} without an answer from an agent`
      : `${who} has waited ${minutesText(minutes)} for an answer`,
    accountName: scope.accountName,
    settingsUrl: scope.settingsUrl,
    blocks: [
      {
        kind: 'rows',
        rows: [
          ['Visitor', t.visitor ? `#${t.visitor.number}` : null],
          ['Name', t.visitor?.name],
          ['E-mail', t.visitor?.email],
          ['Phone', t.visitor?.phone],
          ['Channel', t.channelName],
          ['Started', mailTime(t.chat.created_at, scope.timezone)],
        ],
      },
      { kind: 'transcript', lines: t.lines },
      { kind: 'link', label: closed ? 'Open the chat' : 'Answer the chat', url: `${publicUrl}/chats/${t.chat.id}` },
    ],
  });
}
