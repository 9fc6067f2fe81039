/**
 * Which agents belong to a department (many to many: agent_departments, migration 022,
 * the same rows an agent's own department_ids edit): read by
 * any admin, replaced whole by an admin (PUT /departments/:id/agents). Every
 * id must name an agent of the account (a 400 names the first that does not,
 * and nothing changes); a deactivated agent may stay a member.
 */
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { invalid, notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

export interface DepartmentMembers {
  department_id: number;
  agent_ids: number[];
}

export const MAX_MEMBERS = 1000;

async function departmentOf(db: Executor, accountId: number, id: number): Promise<void> {
  const row = await db.selectFrom('departments').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound(`Department ${id}`);
}

/** Agent ids of a department, ascending. */
export async function membersOf(db: Executor, departmentId: number): Promise<number[]> {
  const rows = await db.selectFrom('agent_departments').select('agent_id').where('department_id', '=', departmentId).orderBy('agent_id').execute();
  return rows.map((r) => r.agent_id);
}

export async function getDepartmentAgents(ctx: AppContext, input: { actor: Actor; id: number }): Promise<DepartmentMembers> {
  assertAdmin(input.actor);
  await departmentOf(ctx.db, input.actor.account_id, input.id);
  return { department_id: input.id, agent_ids: await membersOf(ctx.db, input.id) };
}

export async function setDepartmentAgents(ctx: AppContext, input: { actor: Actor; id: number; agentIds: number[] }): Promise<DepartmentMembers> {
  const { actor, id } = input;
  assertAdmin(actor);
  const wanted = [...new Set(input.agentIds)];
  if (wanted.length > MAX_MEMBERS) throw invalid(`A department can have at most ${MAX_MEMBERS} agents (got ${wanted.length}).`);
  return inTransaction(ctx.db, async (tx) => {
    await departmentOf(tx, actor.account_id, id);
    if (wanted.length > 0) {
      const found = await tx.selectFrom('agents').select('id').where('account_id', '=', actor.account_id).where('id', 'in', wanted).execute();
      const known = new Set(found.map((r) => r.id));
      const missing = wanted.find((a) => !known.has(a));
      if (missing !== undefined) throw invalid(`agent_ids must name agents of this account; ${missing} is not one.`);
    }
    await tx.deleteFrom('agent_departments').where('department_id', '=', id).execute();
    if (wanted.length > 0)
      await tx
        .insertInto('agent_departments')
        .values(wanted.map((agent_id) => ({ account_id: actor.account_id, department_id: id, agent_id })))
        .execute();
    return { department_id: id, agent_ids: await membersOf(tx, id) };
  });
}
