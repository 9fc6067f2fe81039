/**
 * Moves the hours clock on: every row of working_hours_clock whose next
 * change has come gets the state at `now` and its next change, and — when
 * open/closed flipped — a `working_hours.changed` event, in one transaction.
 * The UPDATE names the `changes_at` it read (compare-and-set), so when several
 * instances look at the same minute exactly one moves the row and records the
 * event; the others update nothing and record nothing. A row whose department
 * is gone is deleted.
 */
import type { AppContext } from '../../context.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { ACCOUNT_SCOPE } from './announceHours.js';
import { hoursState } from './hours.js';
import { accountHours, departmentOwnHours } from './storedHours.js';

const BATCH = 100;

/** Rows moved on; the events recorded are those whose `open` changed. */
export async function advanceHoursClock(ctx: AppContext): Promise<number> {
  const now = ctx.clock();
  const due = await ctx.db
    .selectFrom('working_hours_clock')
    .selectAll()
    .where('changes_at', 'is not', null)
    .where('changes_at', '<=', now)
    .orderBy('changes_at')
    .limit(BATCH)
    .execute();
  let moved = 0;
  for (const row of due) {
    const departmentId = row.department_id === ACCOUNT_SCOPE ? null : row.department_id;
    const done = await commit(ctx.db, ctx.signals, async (tx) => {
      const where = tx
        .updateTable('working_hours_clock')
        .where('account_id', '=', row.account_id)
        .where('department_id', '=', row.department_id)
        .where('changes_at', '=', row.changes_at);
      const hours = departmentId === null ? await accountHours(tx, row.account_id) : await departmentOwnHours(tx, row.account_id, departmentId);
      if (!hours) {
        // No hours (cleared, or the department deleted) while the row stayed: nothing to announce any more.
        await tx
          .deleteFrom('working_hours_clock')
          .where('account_id', '=', row.account_id)
          .where('department_id', '=', row.department_id)
          .where('changes_at', '=', row.changes_at)
          .execute();
        return false;
      }
      const state = hoursState(hours, now);
      const claimed = await where.set({ open: state.open ? 1 : 0, changes_at: state.changes_at }).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false; // another instance moved it
      if (state.open !== (row.open === 1)) {
        await recordEvent(
          tx,
          { accountId: row.account_id, type: 'working_hours.changed', data: { department_id: departmentId, open: state.open, changes_at: state.changes_at } },
          now,
        );
      }
      return true;
    });
    if (done) moved++;
  }
  return moved;
}

/** When the next row is due (epoch ms), or null when none is. */
export async function nextHoursChange(ctx: AppContext): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('working_hours_clock')
    .select('changes_at')
    .where('changes_at', 'is not', null)
    .orderBy('changes_at')
    .limit(1)
    .executeTakeFirst();
  return row?.changes_at ?? null;
}
