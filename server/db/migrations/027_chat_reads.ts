/**
 * Unread state per agent (#20): `chat_reads` holds, per agent and chat, the id
 * of the last message the agent has seen (written by POST /api/v1/chats/:id/read
 * when the agent views the chat). Nothing is written when a message arrives:
 * an agent's unread count is counted when a list is read, as the visitor's
 * messages of the chat after that id, on the messages_chat (chat_id, id) index.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('chat_reads')
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('last_read_message_id', 'integer', (c) => c.notNull())
    .addColumn('updated_at', k.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_reads_pk', ['agent_id', 'chat_id'])
    .execute();
  // Deleting a chat (its channel deleted) finds its rows without a scan.
  await db.schema.createIndex('chat_reads_chat').on('chat_reads').column('chat_id').execute();
}
