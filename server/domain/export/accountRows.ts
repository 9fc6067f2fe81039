/**
 * Every row of an account that its export holds (GET /api/v1/export, docs/DATA.md
 * "Export"), in a fixed order — the account, agents, departments, channels, canned
 * responses, then visitors, chats, messages, calls and offline messages — read in
 * id order, a batch at a time, so the memory it takes stays the same whatever
 * the account's size. The rows are the store's; presenters/export.ts decides
 * which of their fields leave (never a password hash, token or secret).
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AccountRow } from '../../db/exportRows.js';
export type { AccountRow };

/** Rows per query: small enough that a batch is a few hundred kilobytes, large enough that queries are few. */
export const EXPORT_BATCH = 1000;

type IdTable = 'agents' | 'departments' | 'channels' | 'canned_responses' | 'visitors' | 'chats' | 'messages' | 'calls' | 'offline_messages';

/** The account's rows of one table after the last id seen, one batch per query, until none are left. */
async function* inIdOrder<T extends IdTable>(db: Kysely<Database>, table: T, accountId: number, batch: number): AsyncGenerator<Selectable<Database[T]>> {
  let after = 0;
  for (;;) {
    // Every one of these tables has account_id and id; Kysely cannot see that through the union, hence the one name.
    const rows = (await db
      .selectFrom(table as 'messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute()) as unknown as Selectable<Database[T]>[];
    yield* rows;
    if (rows.length < batch) return;
    after = (rows[rows.length - 1] as { id: number }).id;
  }
}

export async function* accountRows(db: Kysely<Database>, accountId: number, batch = EXPORT_BATCH): AsyncGenerator<AccountRow> {
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account) return;
  yield { type: 'account', row: account };
  // Links of agents and channels: one row per pair, few even for a large account.
  const memberships = await db.selectFrom('agent_departments').select(['agent_id', 'department_id']).where('account_id', '=', accountId).execute();
  const channelAgents = await db.selectFrom('channel_agents').select(['channel_id', 'agent_id']).where('account_id', '=', accountId).execute();
  for await (const row of inIdOrder(db, 'agents', accountId, batch)) {
    yield { type: 'agent', row, departmentIds: memberships.filter((m) => m.agent_id === row.id).map((m) => m.department_id) };
  }
  for await (const row of inIdOrder(db, 'departments', accountId, batch)) yield { type: 'department', row };
  for await (const row of inIdOrder(db, 'channels', accountId, batch)) {
    yield { type: 'channel', row, agentIds: channelAgents.filter((c) => c.channel_id === row.id).map((c) => c.agent_id) };
  }
  for await (const row of inIdOrder(db, 'canned_responses', accountId, batch)) yield { type: 'canned_response', row };
  for await (const row of inIdOrder(db, 'visitors', accountId, batch)) yield { type: 'visitor', row };
  for await (const row of inIdOrder(db, 'chats', accountId, batch)) yield { type: 'chat', row };
  for await (const row of inIdOrder(db, 'messages', accountId, batch)) yield { type: 'message', row };
  for await (const row of inIdOrder(db, 'calls', accountId, batch)) yield { type: 'call', row };
  for await (const row of inIdOrder(db, 'offline_messages', accountId, batch)) yield { type: 'offline_message', row };
}
