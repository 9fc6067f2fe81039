/**
 * An admin replaces the account's Standard Webhooks secret (`whsec_…`).
 * Requests signed from now on use the new one; receivers must be updated.
 */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { settingsOf, type SettingsRow } from './getSettings.js';
import { newWebhookSecret } from './settingsRow.js';

export async function rotateWebhookSecret(ctx: AppContext, input: { actor: Actor }): Promise<SettingsRow> {
  assertAdmin(input.actor);
  const now = ctx.clock();
  return inTransaction(ctx.db, async (tx) => {
    await settingsOf(tx, input.actor.account_id, now);
    return tx
      .updateTable('settings')
      .set({ webhook_secret: newWebhookSecret(), updated_at: now })
      .where('account_id', '=', input.actor.account_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
