/**
 * "E-mail me this conversation": the visitor asks for a copy of its open
 * chat (or its last one once finished), mailed to the e-mail address the
 * visitor gave (contacts form, setContactInfo). Only to that address, never
 * one named in the request nor one a CRM's chat_accepted answer wrote to the
 * visitor (ownContact.ts), so the widget cannot be used to mail strangers.
 * The copy holds what the visitor saw: no private notes, and its own lines
 * signed with the name it gave, or "You" (the visitor's name column may be
 * the CRM's).
 */
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { enqueueMail } from '../../mail/enqueueMail.js';
import { notificationScope } from '../../mail/recipients.js';
import { visitorTranscriptMail } from '../../mail/templates/transcript.js';
import { loadTranscript } from '../../mail/transcript.js';
import { readOwnContact } from './ownContact.js';
import { lockVisitor } from './visitorAccess.js';
import { currentChat } from './widgetState.js';

export async function mailTranscript(ctx: AppContext, input: { visitor: Visitor }): Promise<{ chat_id: number }> {
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    const own = readOwnContact(visitor);
    const email = own.email;
    if (!email) throw new AppError('conflict', 'Give your e-mail address first (the contacts form), then ask for the conversation again.');
    const chat = await currentChat(tx, input.visitor.id);
    if (!chat) throw new AppError('conflict', 'There is no conversation to send yet: write a message first.');
    const scope = await notificationScope(tx, ctx.config, chat.account_id);
    const transcript = await loadTranscript(tx, {
      accountId: chat.account_id,
      chatId: chat.id,
      timezone: scope.timezone,
      withNotes: false,
      visitorName: own.name ?? 'You',
    });
    if (!transcript) throw new AppError('conflict', 'There is no conversation to send yet: write a message first.');
    const content = visitorTranscriptMail(scope, transcript);
    await enqueueMail(tx, ctx.config, { accountId: chat.account_id, type: 'chat_transcript', to: email, chatId: chat.id, ...content }, now);
    return { chat_id: chat.id };
  });
}
