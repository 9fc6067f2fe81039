/**
 * A visitor writes in the widget (POST /widget/api/<widget_id>/messages).
 * One transaction, like the chat channel's receiveInbound: the visitor row is
 * locked, the open chat found or a pending one opened (with the proactive
 * invitation as the visitor's invite text, the department, the page and the
 * custom data set so far; a widget that requires a department choice refuses
 * a first message without one), the message stored and message.created recorded,
 * by the one rule of a visitor's message (messages/visitorMessage.ts): a
 * blacklisted visitor's messages are stored suppressed on the last chat and
 * reach nobody; the visitor is not told.
 */
import type { AppContext } from '../../context.js';
import { MAX_ID } from '../../db/columns.js';
import type { Channel, Message, Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { findOpenChat } from '../chats/openChat.js';
import { InvalidMessage, normalizeMessage, optionalLine, type NormalizedMessage } from '../messages/normalizeMessage.js';
import { writeVisitorMessage, type ChatOpening } from '../messages/visitorMessage.js';
import { readSession } from './session.js';
import { attachUpload } from './attachUpload.js';
import { isUploadName } from '../uploads/storeUpload.js';
import { lockVisitor } from './visitorAccess.js';
import { departmentChoice } from '../routing/departmentChoice.js';

export interface WidgetMessageInput {
  channel: Channel;
  visitor: Visitor;
  body: Record<string, unknown>;
}

/** The spec's message rules; files must be this service's own uploads (no links to elsewhere in a visitor's name). */
export function normalizeWidgetMessage(body: Record<string, unknown>, publicUrl: string): NormalizedMessage {
  const { type, text, file, file_name, file_size, latitude, longitude } = body;
  let normalized;
  try {
    normalized = normalizeMessage({ type, text, file, file_name, file_size, latitude, longitude });
  } catch (err) {
    if (err instanceof InvalidMessage) throw invalid(err.message);
    throw err;
  }
  if (normalized.kind === 'typing') throw invalid('Send typing with POST /widget/api/<widget_id>/typing, not as a message.');
  const message = normalized.message;
  if (message.file !== null && !isOwnUploadUrl(message.file, publicUrl)) {
    throw invalid('message.file must be a URL returned by POST /widget/api/<widget_id>/uploads.');
  }
  return message;
}

/**
 * Checked on the parsed URL, not a string prefix: same origin as PUBLIC_URL,
 * path exactly `<base path>/widget/uploads/<a name we make>`, no query or
 * fragment, and written in canonical form (so `..`, `%2e%2e` or `%2f` cannot
 * point the link elsewhere once a browser normalizes it).
 */
export function isOwnUploadUrl(file: string, publicUrl: string): boolean {
  let url: URL;
  let base: URL;
  try {
    url = new URL(file);
    base = new URL(publicUrl);
  } catch {
    return false;
  }
  if (url.href !== file || url.origin !== base.origin || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return false;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/widget/uploads/`;
  if (!url.pathname.startsWith(prefix)) return false;
  return isUploadName(url.pathname.slice(prefix.length));
}

async function departmentOf(ctx: AppContext, accountId: number, raw: unknown): Promise<number | null> {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 1 || raw > MAX_ID) return null;
  const row = await ctx.db.selectFrom('departments').select('id').where('id', '=', raw).where('account_id', '=', accountId).executeTakeFirst();
  return row?.id ?? null; // an unknown department is dropped, the message kept
}

export async function receiveWidgetMessage(ctx: AppContext, input: WidgetMessageInput): Promise<Message> {
  const { channel, body } = input;
  const message = normalizeWidgetMessage(body, ctx.config.publicUrl);
  const invite = optionalLine(body.invite, 1000);
  const departmentId = await departmentOf(ctx, channel.account_id, body.department_id);
  const now = ctx.clock();

  return commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    const opening = async (): Promise<ChatOpening> => {
      if (departmentId === null && departmentChoice(channel) === 'required' && !(await findOpenChat(tx, visitor.id))) {
        throw invalid('Choose a department before the first message: this widget asks for one (department_id).');
      }
      let opener = visitor;
      if (invite && !(await findOpenChat(tx, visitor.id))) {
        // Before the chat opens, so chat.created already shows it to agents.
        opener = await tx.updateTable('visitors').set({ invite }).where('id', '=', visitor.id).returningAll().executeTakeFirstOrThrow();
      }
      const session = readSession(opener);
      return { visitor: opener, departmentId, page: session.page ? { ...session.page } : null, customData: session.custom_data ?? null };
    };
    const written = (await writeVisitorMessage(tx, { visitor, message, now, opening })).message;
    if (message.file !== null) await attachUpload(tx, { accountId: channel.account_id, file: message.file, messageId: written.id });
    return written;
  });
}
