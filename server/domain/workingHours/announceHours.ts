/**
 * Hours were saved (settings or a department): inside the saving transaction,
 * the hours clock row of that scope is set to the state now and its next
 * change (the worker moves it on at that instant: hoursWorker.ts), and
 * `working_hours.changed` is recorded, so every visitor socket rechecks the
 * channel's availability at once, on every instance.
 */
import type { Tx } from '../../db/database.js';
import { recordEvent } from '../../events/outbox.js';
import { hoursState, type WorkingHours } from './hours.js';

/** `department_id` of the account's own row in working_hours_clock. */
export const ACCOUNT_SCOPE = 0;

/** Emitted on ctx.signals after a save, so this process's hours worker looks at the new next change now. */
export const HOURS_SAVED = 'working_hours';

export async function announceHours(tx: Tx, input: { accountId: number; departmentId: number | null; hours: WorkingHours | null }, now: number): Promise<void> {
  const { accountId, departmentId, hours } = input;
  const scope = departmentId ?? ACCOUNT_SCOPE;
  const state = hoursState(hours, now);
  if (hours === null) {
    await tx.deleteFrom('working_hours_clock').where('account_id', '=', accountId).where('department_id', '=', scope).execute();
  } else {
    const row = { open: state.open ? 1 : 0, changes_at: state.changes_at };
    await tx
      .insertInto('working_hours_clock')
      .values({ account_id: accountId, department_id: scope, ...row })
      .onConflict((oc) => oc.columns(['account_id', 'department_id']).doUpdateSet(row))
      .execute();
  }
  await recordEvent(
    tx,
    { accountId, type: 'working_hours.changed', data: { department_id: departmentId, open: state.open, changes_at: state.changes_at } },
    now,
  );
}
