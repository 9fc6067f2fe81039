/** Reading agents: a page of the caller's account, or one agent of it (404 for any other account's), each with its departments. */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from './actor.js';
import { withDepartments, type AgentWithDepartments } from './agentDepartments.js';

export async function listAgents(ctx: AppContext, input: { actor: Actor; page: Page }): Promise<AgentWithDepartments[]> {
  const q = ctx.db.selectFrom('agents').selectAll().where('account_id', '=', input.actor.account_id);
  return withDepartments(ctx.db, await applyPage(q, input.page, 'id').execute());
}

export async function getAgent(ctx: AppContext, input: { actor: Actor; id: number }): Promise<AgentWithDepartments> {
  const agent = await ctx.db.selectFrom('agents').selectAll().where('id', '=', input.id).where('account_id', '=', input.actor.account_id).executeTakeFirst();
  if (!agent) throw notFound(`Agent ${input.id}`);
  const [withIds] = await withDepartments(ctx.db, [agent]);
  return withIds;
}
