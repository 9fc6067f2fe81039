/**
 * An agent changes its own alert preferences (PUT /me/notifications): the
 * keys the change names, checked first, so a refused change stores nothing.
 */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import {
  mergeNotificationPrefs,
  notificationPrefsOf,
  storeNotificationPrefs,
  type NotificationPrefs,
  type NotificationPrefsChanges,
} from './notificationPrefs.js';

export async function getNotificationPrefs(ctx: AppContext, input: { agentId: number; accountId: number }): Promise<NotificationPrefs> {
  const row = await ctx.db
    .selectFrom('agents')
    .select('notification_prefs_json')
    .where('id', '=', input.agentId)
    .where('account_id', '=', input.accountId)
    .executeTakeFirstOrThrow();
  return notificationPrefsOf(row.notification_prefs_json);
}

export async function updateNotificationPrefs(
  ctx: AppContext,
  input: { agentId: number; accountId: number; changes: NotificationPrefsChanges },
): Promise<NotificationPrefs> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await tx
      .selectFrom('agents')
      .select('notification_prefs_json')
      .where('id', '=', input.agentId)
      .where('account_id', '=', input.accountId)
      .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    const prefs = mergeNotificationPrefs(notificationPrefsOf(row.notification_prefs_json), input.changes);
    await tx
      .updateTable('agents')
      .set({ notification_prefs_json: storeNotificationPrefs(prefs), updated_at: ctx.clock() })
      .where('id', '=', input.agentId)
      .where('account_id', '=', input.accountId)
      .execute();
    return prefs;
  });
}
