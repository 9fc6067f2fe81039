/** Reading agents: a page of the caller's account, or one agent of it (404 for any other account's). */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from './actor.js';

export async function listAgents(ctx: AppContext, input: { actor: Actor; page: Page }): Promise<Agent[]> {
  const q = ctx.db.selectFrom('agents').selectAll().where('account_id', '=', input.actor.account_id);
  return applyPage(q, input.page, 'id').execute();
}

export async function getAgent(ctx: AppContext, input: { actor: Actor; id: number }): Promise<Agent> {
  const agent = await ctx.db.selectFrom('agents').selectAll().where('id', '=', input.id).where('account_id', '=', input.actor.account_id).executeTakeFirst();
  if (!agent) throw notFound(`Agent ${input.id}`);
  return agent;
}
