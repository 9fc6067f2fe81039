/** Reads what an event webhook body needs about a chat: the chat, its visitor, channel and department. */
import type { Executor } from '../db/database.js';
import type { Agent, Visitor } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import type { ChatScope } from '../presenters/webhook/events.js';

export async function loadChatScope(db: Executor, chatId: number): Promise<ChatScope | null> {
  const chat = await db.selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirst();
  if (!chat) return null;
  const [visitor, channel, department] = await Promise.all([
    db.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow(),
    db.selectFrom('channels').selectAll().where('id', '=', chat.channel_id).executeTakeFirstOrThrow(),
    chat.department_id === null
      ? Promise.resolve(undefined)
      : db.selectFrom('departments').select(['id', 'name']).where('id', '=', chat.department_id).executeTakeFirst(),
  ]);
  return { chat, visitor, channel, department: department ?? null };
}

export async function loadAgent(db: Executor, accountId: number, agentId: number | null | undefined): Promise<Agent | null> {
  if (!agentId) return null;
  return (await db.selectFrom('agents').selectAll().where('id', '=', agentId).where('account_id', '=', accountId).executeTakeFirst()) ?? null;
}

export async function loadVisitor(db: Executor, visitorId: number | null): Promise<Visitor | null> {
  if (visitorId === null) return null;
  return (await db.selectFrom('visitors').selectAll().where('id', '=', visitorId).executeTakeFirst()) ?? null;
}

/** The agents who worked the chat, in the order they joined it. */
export async function loadChatAgents(db: Executor, scope: ChatScope): Promise<Agent[]> {
  const ids = parseJson<number[]>(scope.chat.agent_ids_json, []);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('agents').selectAll().where('id', 'in', ids).where('account_id', '=', scope.chat.account_id).execute();
  return ids.map((id) => rows.find((r) => r.id === id)).filter((a): a is Agent => a !== undefined);
}
