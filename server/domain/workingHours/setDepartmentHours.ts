/**
 * An admin gives a department its own working hours for chat, changes them
 * (a partial object: mergeHours.ts) or clears them (null: the department
 * follows the account's). Recorded as `working_hours.changed` with the
 * department's id, in the same transaction.
 */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { toJson } from '../../lib/json.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { announceHours, HOURS_SAVED } from './announceHours.js';
import type { WorkingHours } from './hours.js';
import { mergeHours, type HoursChange } from './mergeHours.js';
import { accountHours, parseStoredHours } from './storedHours.js';

export interface DepartmentHours {
  id: number;
  name: string;
  own: WorkingHours | null;
  account: WorkingHours | null;
  now: number;
}

export async function setDepartmentHours(ctx: AppContext, input: { actor: Actor; id: number; hours: HoursChange }): Promise<DepartmentHours> {
  const { actor, id } = input;
  assertAdmin(actor);
  const now = ctx.clock();
  const result = await commit(ctx.db, ctx.signals, async (tx) => {
    const row = await tx
      .selectFrom('departments')
      .select(['id', 'name', 'hours_json'])
      .where('id', '=', id)
      .where('account_id', '=', actor.account_id)
      .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) throw notFound(`Department ${id}`);
    const own = mergeHours(parseStoredHours(row.hours_json), input.hours);
    const json = own === null ? null : toJson(own);
    if (json !== row.hours_json) {
      await tx.updateTable('departments').set({ hours_json: json }).where('id', '=', id).execute();
      await announceHours(tx, { accountId: actor.account_id, departmentId: id, hours: own }, now);
    }
    return { id: row.id, name: row.name, own, account: await accountHours(tx, actor.account_id), now };
  });
  ctx.signals.emit(HOURS_SAVED);
  return result;
}
