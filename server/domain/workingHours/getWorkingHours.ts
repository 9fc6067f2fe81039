/** The account's working hours for chat and each department's (own or the account's), for the admin screen. */
import type { AppContext } from '../../context.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import type { WorkingHours } from './hours.js';
import { accountHours, parseStoredHours } from './storedHours.js';

export interface WorkingHoursView {
  account: WorkingHours | null;
  departments: Array<{ id: number; name: string; own: WorkingHours | null }>;
  now: number;
}

export async function getWorkingHours(ctx: AppContext, input: { actor: Actor }): Promise<WorkingHoursView> {
  assertAdmin(input.actor);
  const accountId = input.actor.account_id;
  const account = await accountHours(ctx.db, accountId);
  const rows = await ctx.db
    .selectFrom('departments')
    .select(['id', 'name', 'hours_json'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return { account, departments: rows.map((r) => ({ id: r.id, name: r.name, own: parseStoredHours(r.hours_json) })), now: ctx.clock() };
}
