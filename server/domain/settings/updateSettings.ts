/**
 * An admin changes the account settings (PUT /settings): only the keys the
 * change names, each validated first, so a refused change stores nothing.
 * Switching an event type off cancels its pending (and paused) event
 * webhooks in the same transaction: from the commit on, none of that type
 * is sent (the event-webhook subscriber reads the choice under a share lock
 * on PostgreSQL, so an event relayed meanwhile is cancelled or never made).
 * The webhook secret is read-only here (rotateWebhookSecret issues a new one).
 * Widget rules are checked against docs/WIDGET.md (widgetRules.ts).
 */
import type { Updateable } from 'kysely';
import { inTransaction, type Tx } from '../../db/database.js';
import type { AppContext } from '../../context.js';
import type { SettingsTable } from '../../db/schema.js';
import { clearGivenUp } from '../../eventWebhooks/giveUp.js';
import { resumeEventWebhooks } from '../../eventWebhooks/pause.js';
import { toJson } from '../../lib/json.js';
import { cleanAccountName } from '../accounts/accountName.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import type { WebhookEventName } from '../../presenters/webhook/types.js';
import { retentionColumns } from './chatRetention.js';
import { eventTypeColumns, eventTypesOf } from './eventTypes.js';
import { callbackOf, settingsOf, type SettingsRow } from './getSettings.js';
import { cleanEventWebhookUrl, cleanSafeUrl, mergeCallback, type SettingsChanges } from './settingsInput.js';
import { notificationColumns } from './notifications.js';
import { presenceColumns } from './presence.js';
import { cleanWidgetRules } from './widgetRules.js';
import { announceHours, HOURS_SAVED } from '../workingHours/announceHours.js';
import { mergeHours } from '../workingHours/mergeHours.js';
import { parseStoredHours } from '../workingHours/storedHours.js';

export async function updateSettings(ctx: AppContext, input: { actor: Actor; changes: SettingsChanges }): Promise<SettingsRow> {
  const { actor, changes } = input;
  assertAdmin(actor);
  const checked: Updateable<SettingsTable> = {};
  if (changes.event_webhook_url !== undefined) checked.event_webhook_url = cleanEventWebhookUrl(ctx.config, changes.event_webhook_url);
  if (changes.safe_url !== undefined) checked.safe_url = cleanSafeUrl(changes.safe_url);
  if (changes.rules !== undefined) {
    const rules = await cleanWidgetRules(ctx.db, actor.account_id, changes.rules);
    checked.rules_json = rules === null ? null : toJson(rules);
  }
  if (changes.notifications !== undefined) Object.assign(checked, notificationColumns(changes.notifications));
  if (changes.presence !== undefined) Object.assign(checked, presenceColumns(changes.presence));
  if (changes.retention !== undefined) Object.assign(checked, retentionColumns(changes.retention));
  const accountName = changes.account_name === undefined ? undefined : cleanAccountName(changes.account_name);
  const now = ctx.clock();

  let zoneChanged = false;
  // A run PostgreSQL aborts (a deadlock) runs again: each run starts from the checked columns, not from the last run's additions.
  const row = await inTransaction(ctx.db, async (tx) => {
    const set: Updateable<SettingsTable> = { ...checked };
    zoneChanged = false;
    const current = await settingsOf(tx, actor.account_id, now, ctx.store.dialect === 'postgres');
    if (accountName !== undefined) await tx.updateTable('accounts').set({ name: accountName }).where('id', '=', actor.account_id).execute();
    if (changes.callback !== undefined) {
      const callback = mergeCallback(callbackOf(current), changes.callback);
      zoneChanged = callback.timezone !== callbackOf(current).timezone;
      set.callback_json = toJson(callback);
    }
    if (changes.chat_hours !== undefined) {
      const hours = mergeHours(parseStoredHours(current.chat_hours_json), changes.chat_hours);
      set.chat_hours_json = hours === null ? null : toJson(hours);
      if (set.chat_hours_json !== current.chat_hours_json) await announceHours(tx, { accountId: actor.account_id, departmentId: null, hours }, now);
    }
    if (changes.event_webhook_types !== undefined) {
      const types = eventTypeColumns(eventTypesOf(current), changes.event_webhook_types);
      Object.assign(set, types.set);
      await cancelEventWebhooks(tx, actor.account_id, types.switchedOff, now);
    }
    if (Object.keys(set).length === 0) return current;
    // A new receiver gets every event type, including those the old one refused.
    if (set.event_webhook_url !== undefined && set.event_webhook_url !== current.event_webhook_url) await clearGivenUp(tx, actor.account_id);
    // A new receiver URL ends a pause: the held deliveries go to the new URL.
    if (set.event_webhook_url && set.event_webhook_url !== current.event_webhook_url && current.webhooks_paused_reason) {
      await resumeEventWebhooks(tx, actor.account_id, now);
      await tx
        .updateTable('deliveries')
        .set({ url: set.event_webhook_url })
        .where('account_id', '=', actor.account_id)
        .where('kind', '=', 'event_webhook')
        .where('status', '=', 'pending')
        .where('attempts', '=', 0)
        .execute();
    }
    return tx
      .updateTable('settings')
      .set({ ...set, updated_at: now })
      .where('account_id', '=', actor.account_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  ctx.signals.deliveriesDue();
  // Reports default to the callback zone: the daily rollup follows it (domain/reports/dailyRollupWorker.ts).
  if (zoneChanged) ctx.signals.reportZoneChanged();
  if (changes.chat_hours !== undefined) {
    ctx.signals.outboxWritten();
    ctx.signals.emit(HOURS_SAVED);
  }
  return row;
}

/** The not yet sent event webhooks of types switched off: cancelled, never sent (kept in the log until retention). */
async function cancelEventWebhooks(tx: Tx, accountId: number, types: WebhookEventName[], now: number): Promise<void> {
  if (types.length === 0) return;
  await tx
    .updateTable('deliveries')
    .set({
      status: 'cancelled',
      // Finished now, for retention (pruneDeliveries.ts reads next_attempt_at of finished rows).
      next_attempt_at: now,
      locked_until: null,
      last_error: 'Not sent: an admin switched this event type off in the settings.',
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('kind', '=', 'event_webhook')
    .where('event_type', 'in', types)
    .where('status', 'in', ['pending', 'paused'])
    .execute();
}
