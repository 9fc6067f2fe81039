/** An admin renames a department of its account. */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanName } from '../agents/agentInput.js';
import type { Department } from './createDepartment.js';

export async function renameDepartment(ctx: AppContext, input: { actor: Actor; id: number; name: string }): Promise<Department> {
  assertAdmin(input.actor);
  const name = cleanName(input.name);
  const row = await ctx.db
    .updateTable('departments')
    .set({ name })
    .where('id', '=', input.id)
    .where('account_id', '=', input.actor.account_id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(`Department ${input.id}`);
  return row;
}
