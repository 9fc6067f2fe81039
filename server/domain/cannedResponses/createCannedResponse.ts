/** An admin adds a canned response to its account; a shortcut already in use is 409 shortcut_taken. */
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanShortcut, cleanText, cleanTitle, rethrowDuplicate, shortcutTaken, type CannedResponse } from './cannedResponseInput.js';

export interface NewCannedResponse {
  shortcut: string;
  title: string;
  text: string;
}

/** Refuses a shortcut another response of the account has (`exceptId`: the one being changed). */
export async function assertShortcutFree(db: Executor, accountId: number, shortcut: string, exceptId?: number): Promise<void> {
  const q = db.selectFrom('canned_responses').select('id').where('account_id', '=', accountId).where('shortcut', '=', shortcut);
  const found = await (exceptId === undefined ? q : q.where('id', '!=', exceptId)).executeTakeFirst();
  if (found) throw shortcutTaken(shortcut);
}

export async function createCannedResponse(ctx: AppContext, input: { actor: Actor; fields: NewCannedResponse }): Promise<CannedResponse> {
  const { actor, fields } = input;
  assertAdmin(actor);
  const shortcut = cleanShortcut(fields.shortcut);
  const title = cleanTitle(fields.title);
  const text = cleanText(fields.text);
  await assertShortcutFree(ctx.db, actor.account_id, shortcut);
  const now = ctx.clock();
  try {
    return await ctx.db
      .insertInto('canned_responses')
      .values({ account_id: actor.account_id, shortcut, title, text, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    return rethrowDuplicate(err, shortcut);
  }
}
