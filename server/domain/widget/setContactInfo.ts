/**
 * The visitor introduces himself (contacts form, svc_api.setContactInfo):
 * name, e-mail, phone and description go to the visitor record, as if typed
 * in the chat window. When something changed and a chat is open, chat.updated
 * (change visitor_updated) is recorded: agents see it live and the event
 * webhooks send chat_updated. Empty values leave a field as it is. What the
 * visitor gave is also kept apart (widget_contact_json: ownContact.ts), the
 * only contact info the widget shows back. Where the widget has identity
 * verification on, the page may pass `email_signature` = hex
 * HMAC-SHA256(email, identity secret), made on the customer's server: the
 * e-mail then counts as proved for "E-mail me this conversation"
 * (visitors.transcript_email, mailTranscript.ts), without a confirmation link.
 */
import type { AppContext } from '../../context.js';
import type { Channel, Visitor, VisitorsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { optionalLine, optionalString } from '../messages/normalizeMessage.js';
import { readOwnContact } from '../../model/ownContact.js';
import { signedByPage } from './setUserToken.js';
import { lockVisitor } from './visitorAccess.js';

type ContactFields = Partial<Pick<VisitorsTable, 'name' | 'email' | 'phone' | 'description'>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Cleans an e-mail address; 400 when one is given that is not an address. */
export function cleanEmail(raw: unknown): string | null {
  const email = optionalLine(raw, 254);
  if (email !== null && !EMAIL.test(email)) throw invalid(`email must be an e-mail address such as name@example.com (got "${email.slice(0, 60)}").`);
  return email;
}

export function cleanContact(body: Record<string, unknown>): ContactFields {
  const out: ContactFields = {};
  const name = optionalLine(body.client_name ?? body.name, 255);
  const email = cleanEmail(body.email);
  const phone = optionalLine(body.phone, 64);
  const description = optionalString(body.description, 1000);
  if (name) out.name = name;
  if (email) out.email = email;
  if (phone) out.phone = phone;
  if (description) out.description = description;
  return out;
}

export async function setContactInfo(ctx: AppContext, input: { channel?: Channel; visitor: Visitor; body: Record<string, unknown> }): Promise<Visitor> {
  const fields = cleanContact(input.body);
  const email = fields.email;
  const signed = input.channel !== undefined && typeof email === 'string' && signedByPage(input.channel, email, input.body.email_signature);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const current = await lockVisitor(tx, input.visitor.id, now);
    const keys = Object.keys(fields) as (keyof ContactFields)[];
    const changed = keys.filter((k) => fields[k] !== current[k]);
    const own = readOwnContact(current);
    const ownChanged = keys.some((k) => fields[k] !== own[k]);
    const proved = signed && current.transcript_email !== email;
    if (changed.length === 0 && !ownChanged && !proved) return current;
    const visitor = await tx
      .updateTable('visitors')
      .set({
        ...fields,
        ...(ownChanged ? { widget_contact_json: JSON.stringify({ ...own, ...fields }) } : {}),
        ...(proved ? { transcript_email: email } : {}),
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const chat = changed.length > 0 ? await findOpenChat(tx, visitor.id) : undefined;
    if (chat) await recordChatState(tx, chat, 'chat.updated', now, { change: 'visitor_updated' });
    return visitor;
  });
}
