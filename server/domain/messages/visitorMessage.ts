/**
 * The one rule of "a visitor writes a message", whatever way it came in (the
 * chat channel alone or batched, the widget): a blacklisted visitor's message
 * is stored suppressed on its last chat and reaches nobody (the visitor is not
 * told); otherwise it goes into the visitor's open chat (a pending one opened
 * when there is none) as a visitor message, and message.created is recorded
 * for agents and subscribers.
 *
 * The chat channel's batch (chatChannel/storeInboundBatch.ts, its storeEach)
 * and receiveWidgetMessage (widget) call writeVisitorMessage. The batch writes
 * together only messages this rule sends to an already open chat
 * (reachesAgents) and builds their rows with visitorMessageRow and their
 * events with messageCreatedPayload (chats/chatEvents.ts), so those are
 * written as writeVisitorMessage would write them.
 */
import type { Tx } from '../../db/database.js';
import type { Chat, Message, Visitor } from '../../db/schema.js';
import { recordMessageCreated } from '../chats/chatEvents.js';
import { openChat } from '../chats/openChat.js';
import { insertMessage, messageRow, type MessageRow } from './insertMessage.js';
import type { NormalizedMessage } from './normalizeMessage.js';

/** How a chat opened for the message starts; `visitor` replaces the caller's when the opening changed it. */
export interface ChatOpening {
  visitor?: Visitor;
  departmentId?: number | null;
  page?: Record<string, unknown> | null;
  customData?: unknown[] | null;
}

export interface VisitorMessageInput {
  visitor: Visitor;
  message: NormalizedMessage;
  now: number;
  /** Called only when the message goes to the open chat, before that chat is found or opened. */
  opening?: () => Promise<ChatOpening> | ChatOpening;
  /** The visitor was created in this transaction (it has no chat yet). */
  visitorCreated?: boolean;
  /** Called with the open chat before the message is stored (the chat channel's chat.updated for new contact details). */
  inChat?: (chat: Chat) => Promise<void>;
}

export interface VisitorMessageResult {
  message: Message;
  /** Stored on the visitor's last chat, reaching nobody. */
  suppressed: boolean;
}

/** Whether a visitor's messages go to agents (a blacklisted visitor's do not). */
export function reachesAgents(visitor: Pick<Visitor, 'blacklisted'>): boolean {
  return !visitor.blacklisted;
}

/** The row of a visitor's message in a chat, as writeVisitorMessage writes it. */
export function visitorMessageRow(chat: Pick<Chat, 'id' | 'account_id'>, message: NormalizedMessage, now: number): MessageRow {
  return messageRow({ chat, author: 'visitor', message, now });
}

/** A blacklisted visitor's message, stored suppressed on its last chat; null when the visitor has no chat yet. */
async function storeSuppressed(tx: Tx, visitor: Visitor, message: NormalizedMessage, now: number): Promise<Message | null> {
  const last = await tx.selectFrom('chats').selectAll().where('visitor_id', '=', visitor.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return last ? insertMessage(tx, { chat: last, author: 'visitor', message, suppressed: true, now }) : null;
}

/** The rule, inside the caller's transaction (the visitor row already locked by it). */
export async function writeVisitorMessage(tx: Tx, input: VisitorMessageInput): Promise<VisitorMessageResult> {
  const { message, now } = input;
  if (!reachesAgents(input.visitor)) {
    const stored = await storeSuppressed(tx, input.visitor, message, now);
    if (stored) return { message: stored, suppressed: true };
  }
  const { visitor = input.visitor, ...opening } = (await input.opening?.()) ?? {};
  const { chat } = await openChat(tx, { visitor, ...opening, now, visitorCreated: input.visitorCreated === true && visitor.id === input.visitor.id });
  await input.inChat?.(chat);
  const stored = await insertMessage(tx, { chat, author: 'visitor', message, now });
  await recordMessageCreated(tx, chat, stored, now);
  return { message: stored, suppressed: false };
}
