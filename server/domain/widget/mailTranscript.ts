/**
 * "E-mail me this conversation": the visitor asks for a copy of its open
 * chat (or its last one once finished), mailed to the e-mail address the
 * visitor gave (contacts form, setContactInfo). Only to that address, never
 * one named in the request nor one a CRM's chat_accepted answer wrote to the
 * visitor (ownContact.ts), and only once the visitor proved it owns it
 * (#31 item 2): the first request mails a confirmation link there instead
 * (transcriptMails.ts), and the transcript follows when it is opened
 * (confirmTranscript.ts). An address the page set with a valid identity
 * signature (setContactInfo's email_signature) counts as proved. So the
 * widget cannot be used to mail strangers. The copy holds what the visitor
 * saw: no private notes, and its own lines signed with the name it gave, or
 * "You" in the widget's language (the visitor's name column may be the CRM's).
 */
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { visitorLanguage } from '../../mail/templates/visitorTexts.js';
import { readOwnContact } from '../../model/ownContact.js';
import { sendConfirmation, sendVisitorTranscript } from './transcriptMails.js';
import { lockVisitor } from './visitorAccess.js';
import { currentChat } from './widgetState.js';

/** `ok`: the transcript is queued; `confirmation_sent`: a link to open first went to the address (or one still unused had). */
export type TranscriptOutcome = { result: 'ok' | 'confirmation_sent'; chat_id: number };

export async function mailTranscript(ctx: AppContext, input: { visitor: Visitor; lang?: unknown }): Promise<TranscriptOutcome> {
  const now = ctx.clock();
  const lang = visitorLanguage(input.lang);
  return commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    const email = readOwnContact(visitor).email;
    if (!email) throw new AppError('conflict', 'Give your e-mail address first (the contacts form), then ask for the conversation again.');
    const chat = await currentChat(tx, input.visitor.id);
    if (!chat) throw new AppError('conflict', 'There is no conversation to send yet: write a message first.');
    if (visitor.transcript_email === email) {
      await sendVisitorTranscript(ctx, tx, { visitor, chat, email, lang }, now);
      return { result: 'ok', chat_id: chat.id };
    }
    await sendConfirmation(ctx, tx, { visitor, chat, email, lang }, now);
    return { result: 'confirmation_sent', chat_id: chat.id };
  });
}
