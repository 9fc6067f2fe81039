/**
 * Search by filters alone (#20, domain/chats/searchChats.ts): chats listed
 * newest first by the agent who held them, their rating or their channel,
 * read from an index in id order instead of a scan of the account's chats
 * (chats_account_status already serves the status filter).
 */
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('chats_account_accepted_by').on('chats').columns(['account_id', 'accepted_by', 'id']).execute();
  await db.schema.createIndex('chats_account_rate').on('chats').columns(['account_id', 'rate', 'id']).execute();
  await db.schema.createIndex('chats_account_channel').on('chats').columns(['account_id', 'channel_id', 'id']).execute();
}
