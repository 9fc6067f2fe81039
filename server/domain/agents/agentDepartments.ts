/**
 * Agents' departments (migration 022): which departments an agent belongs to,
 * read for the agents API, and replaced when an admin edits an agent
 * (`department_ids` in PATCH /api/v1/agents/:id). Every id must be a
 * department of the agent's own account.
 */
import { MAX_ID } from '../../db/columns.js';
import type { Executor } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';

/** An agent with the ids of its departments, ascending. */
export type AgentWithDepartments = Agent & { department_ids: number[] };

const MAX_DEPARTMENTS = 200;

/** The agents given, each with its departments (two queries whatever their number). */
export async function withDepartments(db: Executor, agents: Agent[]): Promise<AgentWithDepartments[]> {
  if (agents.length === 0) return [];
  const rows = await db
    .selectFrom('agent_departments')
    .select(['agent_id', 'department_id'])
    .where(
      'agent_id',
      'in',
      agents.map((a) => a.id),
    )
    .orderBy('department_id')
    .execute();
  const byAgent = new Map<number, number[]>();
  for (const r of rows) byAgent.set(r.agent_id, [...(byAgent.get(r.agent_id) ?? []), r.department_id]);
  return agents.map((a) => ({ ...a, department_ids: byAgent.get(a.id) ?? [] }));
}

/** De-duplicated department ids, each a department of the account; [] = none. */
export async function checkDepartmentIds(db: Executor, accountId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_DEPARTMENTS) throw invalid(`department_ids may name at most ${MAX_DEPARTMENTS} departments.`);
  if (unique.some((id) => !Number.isSafeInteger(id) || id < 1 || id > MAX_ID)) throw invalid('department_ids must be ids of departments (positive integers).');
  if (unique.length === 0) return [];
  const found = await db.selectFrom('departments').select('id').where('account_id', '=', accountId).where('id', 'in', unique).execute();
  const known = new Set(found.map((r) => r.id));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalid(`department_ids must name departments of this account; ${unknown.slice(0, 10).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not.`);
  }
  return unique.sort((a, b) => a - b);
}

/** Replaces the agent's departments with `ids` (already checked). */
export async function setAgentDepartments(db: Executor, accountId: number, agentId: number, ids: number[]): Promise<void> {
  await db.deleteFrom('agent_departments').where('agent_id', '=', agentId).where('account_id', '=', accountId).execute();
  if (ids.length === 0) return;
  await db
    .insertInto('agent_departments')
    .values(ids.map((department_id) => ({ account_id: accountId, agent_id: agentId, department_id })))
    .execute();
}
