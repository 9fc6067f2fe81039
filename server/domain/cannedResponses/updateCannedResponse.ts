/** An admin changes a canned response of its account: only the fields named; a shortcut in use elsewhere is 409. */
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { CannedResponsesTable } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanShortcut, cleanText, cleanTitle, rethrowDuplicate, type CannedResponse } from './cannedResponseInput.js';
import { assertShortcutFree, type NewCannedResponse } from './createCannedResponse.js';

export async function updateCannedResponse(ctx: AppContext, input: { actor: Actor; id: number; fields: Partial<NewCannedResponse> }): Promise<CannedResponse> {
  const { actor, id, fields } = input;
  assertAdmin(actor);
  const set: Updateable<CannedResponsesTable> = {};
  if (fields.shortcut !== undefined) set.shortcut = cleanShortcut(fields.shortcut);
  if (fields.title !== undefined) set.title = cleanTitle(fields.title);
  if (fields.text !== undefined) set.text = cleanText(fields.text);
  const existing = await ctx.db.selectFrom('canned_responses').selectAll().where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!existing) throw notFound(`Canned response ${id}`);
  if (Object.keys(set).length === 0) return existing;
  if (set.shortcut !== undefined) await assertShortcutFree(ctx.db, actor.account_id, set.shortcut, id);
  try {
    const row = await ctx.db
      .updateTable('canned_responses')
      .set({ ...set, updated_at: ctx.clock() })
      .where('id', '=', id)
      .where('account_id', '=', actor.account_id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(`Canned response ${id}`);
    return row;
  } catch (err) {
    return rethrowDuplicate(err, set.shortcut);
  }
}
