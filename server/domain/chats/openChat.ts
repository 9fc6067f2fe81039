/**
 * The visitor's open chat (pending or active), or a new pending chat when there
 * is none (first message, or the last chat was finished). Call it after
 * upsertVisitor in the same transaction: the visitor row lock makes it race-free.
 */
import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';
import type { Chat, Visitor } from '../../db/schema.js';
import { recordChatState } from './chatEvents.js';

export async function findOpenChat(tx: Tx, visitorId: number): Promise<Chat | undefined> {
  return tx
    .selectFrom('chats')
    .selectAll()
    .where('visitor_id', '=', visitorId)
    .where('status', 'in', ['pending', 'active'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function openChat(
  tx: Tx,
  input: { visitor: Visitor; departmentId?: number | null; page?: Record<string, unknown> | null; customData?: unknown[] | null; now: number },
): Promise<{ chat: Chat; created: boolean }> {
  const open = await findOpenChat(tx, input.visitor.id);
  if (open) return { chat: open, created: false };
  const { visitor, now } = input;
  const chat = await tx
    .insertInto('chats')
    .values({
      account_id: visitor.account_id,
      channel_id: visitor.channel_id,
      visitor_id: visitor.id,
      department_id: input.departmentId ?? null,
      status: 'pending',
      accepted_by: null,
      agent_ids_json: '[]',
      custom_data_json: input.customData ? JSON.stringify(input.customData) : '[]',
      contact_info_json: null,
      crm_link: null,
      enable_assign: 0,
      page_json: input.page ? JSON.stringify(input.page) : null,
      rate: null,
      blacklisted: 0,
      last_seq: 0,
      created_at: now,
      accepted_at: null,
      finished_at: null,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await tx.updateTable('visitors').set({ chats_count: sql<number>`chats_count + 1` }).where('id', '=', visitor.id).execute();
  await recordChatState(tx, chat, 'chat.created', now);
  return { chat, created: true };
}
