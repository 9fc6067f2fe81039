/** Reading canned responses: a page of the caller's account, newest first; every agent of the account may. */
import type { AppContext } from '../../context.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from '../agents/actor.js';
import type { CannedResponse } from './cannedResponseInput.js';

export async function listCannedResponses(ctx: AppContext, input: { actor: Actor; page: Page }): Promise<CannedResponse[]> {
  const q = ctx.db.selectFrom('canned_responses').selectAll().where('account_id', '=', input.actor.account_id);
  return applyPage(q, input.page, 'id').execute();
}
