/** Reading departments: a page of the caller's account, newest first. */
import type { AppContext } from '../../context.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from '../agents/actor.js';
import type { Department } from './createDepartment.js';

export async function listDepartments(ctx: AppContext, input: { actor: Actor; page: Page }): Promise<Department[]> {
  const q = ctx.db.selectFrom('departments').selectAll().where('account_id', '=', input.actor.account_id);
  return applyPage(q, input.page, 'id').execute();
}
