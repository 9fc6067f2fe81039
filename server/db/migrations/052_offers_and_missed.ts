/**
 * Two fixes of #32 that need the schema:
 *
 * - `chat_offers.previous_agent_id` (item 13): the agent whose offer last ran
 *   out (or who declined it), kept while the chat waits for nobody in
 *   particular, so the offer after the wait names that agent in
 *   `chat.offered`'s `previous_agent_id` (docs/ROUTING.md). Rows waiting
 *   now start with null.
 * - One definition of a missed chat (item 15, domain/chats/missedChat.ts):
 *   `chats.missed_at` marks every missed chat, and the reports count it.
 *   Finished chats no agent answered were the reports' missed chats; they
 *   get `missed_at` (their finish), so the reports' history stays as it was.
 */
import { sql } from 'kysely';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chat_offers').addColumn('previous_agent_id', 'integer').execute();
  await db
    .updateTable('chats')
    .set({ missed_at: sql`coalesce(finished_at, updated_at)` })
    .where('status', '=', 'finished')
    .where('first_response_at', 'is', null)
    .where('missed_at', 'is', null)
    .execute();
}
