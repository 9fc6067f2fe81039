/** An admin resumes paused event webhooks: the pause reason is cleared and the held deliveries are sent. */
import type { AppContext } from '../../context.js';
import { resumeEventWebhooks } from '../../eventWebhooks/pause.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { settingsOf, type SettingsRow } from './getSettings.js';

export async function resumeWebhooks(ctx: AppContext, input: { actor: Actor }): Promise<SettingsRow> {
  assertAdmin(input.actor);
  const now = ctx.clock();
  const row = await ctx.db.transaction().execute(async (tx) => {
    await resumeEventWebhooks(tx, input.actor.account_id, now);
    return settingsOf(tx, input.actor.account_id, now, false);
  });
  ctx.signals.deliveriesDue();
  return row;
}
