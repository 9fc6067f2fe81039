/**
 * What a chat list row is made of: the domain loads it (domain/chats/chatSummaries.ts chatRows),
 * presenters/chat.ts presentChatRows shows it.
 */
import type { Channel, Chat, ChatOffer, Message, Visitor } from '../db/schema.js';

export interface ChatRowData {
  chat: Chat;
  visitor: Visitor;
  channel: Pick<Channel, 'id' | 'type' | 'name'>;
  last: Message | undefined;
  unread: number;
  offer: ChatOffer | null;
}
