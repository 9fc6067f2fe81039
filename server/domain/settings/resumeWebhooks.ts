/**
 * An admin resumes event webhooks: the pause reason is cleared, the held
 * deliveries are sent, and every event type given up on is sent again.
 */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { clearGivenUp } from '../../eventWebhooks/giveUp.js';
import { resumeEventWebhooks } from '../../eventWebhooks/pause.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { settingsOf, type SettingsRow } from './getSettings.js';

export async function resumeWebhooks(ctx: AppContext, input: { actor: Actor }): Promise<SettingsRow> {
  assertAdmin(input.actor);
  const now = ctx.clock();
  const row = await inTransaction(ctx.db, async (tx) => {
    await resumeEventWebhooks(tx, input.actor.account_id, now);
    await clearGivenUp(tx, input.actor.account_id);
    return settingsOf(tx, input.actor.account_id, now, false);
  });
  ctx.signals.deliveriesDue();
  return row;
}
