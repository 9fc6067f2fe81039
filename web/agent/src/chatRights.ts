/**
 * The server's rule for a chat another agent holds (server/domain/chats/chatRights.ts,
 * docs/SECURITY.md §9), so the app offers only what the server accepts: writing to
 * the visitor, finishing, blacklisting and transferring a chat another agent holds
 * are for that agent and administrators; private notes are anyone's who sees it.
 */
import type { AgentDto, ChatDto } from '../../../protocol/agent';

/** The agent who holds the chat (accepted it), or null when nobody does (a waiting chat). */
export function chatHolder(chat: Pick<ChatDto, 'status' | 'accepted_by'>): number | null {
  return chat.status === 'pending' ? null : chat.accepted_by;
}

/** Whether `me` may write to the visitor of, finish or transfer the chat. */
export function mayActOnChat(me: Pick<AgentDto, 'id' | 'role'>, chat: Pick<ChatDto, 'status' | 'accepted_by'>): boolean {
  if (me.role === 'admin') return true;
  const holder = chatHolder(chat);
  return holder === null || holder === me.id;
}
