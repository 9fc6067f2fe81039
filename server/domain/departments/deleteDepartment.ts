/** An admin removes a department of its account; its chats keep no department, its agents leave it. */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

export async function deleteDepartment(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const { actor, id } = input;
  await inTransaction(ctx.db, async (tx) => {
    const gone = await tx.deleteFrom('departments').where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound(`Department ${id}`);
    await tx.deleteFrom('agent_departments').where('department_id', '=', id).where('account_id', '=', actor.account_id).execute();
    await tx.updateTable('chats').set({ department_id: null }).where('department_id', '=', id).where('account_id', '=', actor.account_id).execute();
  });
}
