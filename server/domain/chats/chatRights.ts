/**
 * The one rule for acting on a chat another agent holds (#15 item 9,
 * docs/SECURITY.md §9). Every agent operation on a chat calls it, after
 * loadChatFor (which answers 404 for a chat of a channel the agent does not
 * work) and on the chat as it is inside the operation's transaction, so a
 * transfer that just committed is respected.
 *
 * The holder of a chat is the agent who accepted it (accepted_by): of an
 * active chat, and of a finished one the agent who held it last. A pending
 * chat, and a finished one nobody accepted, has no holder.
 *
 *   An action that reaches the visitor or changes the chat (writing to the
 *   visitor, typing, finishing, blacklisting, transferring, binding it to the
 *   CRM card) on a chat held by another agent is for that agent and for
 *   administrators only: anyone else gets 403 forbidden, and nothing changes.
 *   A chat without a holder is open to every agent who sees it.
 *
 * Private notes (internal messages) reach no visitor and change no holder:
 * any agent who sees the chat may add one, so colleagues can help the holder.
 * Accepting (Reply) has its own answer: a chat another agent holds is 409
 * chat_already_accepted (/openapi.json).
 */
import type { Chat } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import type { Actor } from '../agents/actor.js';

/** What an agent does to a chat; each names itself in the refusal. */
export type ChatAction = 'post' | 'note' | 'typing' | 'finish' | 'blacklist' | 'transfer' | 'assign';

const VERB: Record<ChatAction, string> = {
  post: 'write to its visitor',
  note: 'add a private note to it',
  typing: 'type in it',
  finish: 'finish it',
  blacklist: 'blacklist its visitor',
  transfer: 'transfer it',
  assign: 'bind it to the CRM card',
};

/** The agent who holds the chat, or null when nobody does. */
export function chatHolder(chat: Pick<Chat, 'status' | 'accepted_by'>): number | null {
  return chat.status === 'pending' ? null : chat.accepted_by;
}

/** Whether the actor may do `action` to a chat it sees. */
export function mayActOnChat(actor: Actor, chat: Pick<Chat, 'status' | 'accepted_by'>, action: ChatAction): boolean {
  if (action === 'note') return true;
  if (actor.role === 'admin') return true;
  const holder = chatHolder(chat);
  return holder === null || holder === actor.id;
}

/** Throws 403 forbidden, with the action in words, when the actor may not do it. */
export function assertMayActOnChat(actor: Actor, chat: Pick<Chat, 'status' | 'accepted_by'>, action: ChatAction): void {
  if (mayActOnChat(actor, chat, action)) return;
  throw new AppError('forbidden', `Another agent holds this chat; only they or an administrator may ${VERB[action]}.`);
}
