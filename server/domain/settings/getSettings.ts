/** Reading the settings of the caller's account (created with defaults if the row is missing). */
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { SettingsTable } from '../../db/schema.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { defaultSettings } from './settingsRow.js';
// The reading of the stored callback is below the domain (the presenters read it too).
export { callbackOf } from '../../model/callback.js';

export type SettingsRow = Selectable<SettingsTable>;

export async function getSettings(ctx: AppContext, input: { actor: Actor }): Promise<SettingsRow> {
  assertAdmin(input.actor);
  return settingsOf(ctx.db, input.actor.account_id, ctx.clock());
}

/**
 * The account's settings row; an account without one gets the defaults written
 * first. `lock` (PostgreSQL, inside a transaction) holds the row until commit,
 * so concurrent partial changes do not overwrite each other.
 */
export async function settingsOf(db: Executor, accountId: number, now: number, lock = false): Promise<SettingsRow> {
  const select = () =>
    db
      .selectFrom('settings')
      .selectAll()
      .where('account_id', '=', accountId)
      .$if(lock, (q) => q.forUpdate());
  const row = await select().executeTakeFirst();
  if (row) return row;
  await db
    .insertInto('settings')
    .values(defaultSettings(accountId, now))
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  return select().executeTakeFirstOrThrow();
}
