/**
 * Search's walk over the chats newest first (#20, domain/chats/searchChats.ts):
 * an index of an account's chats in id order, so "the account's newest N chats
 * (before a cursor)" reads N index entries. Without it SQLite read every chat
 * of the account through another (account_id, …) index and sorted them: about
 * 200 ms per window over 100,000 chats, the cost of a search by a common word
 * or a visitor's last name.
 */
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('chats_account_id').on('chats').columns(['account_id', 'id']).execute();
}
