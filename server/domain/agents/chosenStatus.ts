/**
 * The status an agent is given when it opens the app: the one it last chose
 * (PUT /me/status), or the account's default for agents who never chose
 * (settings `presence.default_status`, online unless an admin changed it).
 */
import type { Executor } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { presenceOf, type PresenceSettings } from '../settings/presence.js';

export async function presenceSettingsOf(db: Executor, accountId: number): Promise<PresenceSettings> {
  const row = await db
    .selectFrom('settings')
    .select(['default_agent_status', 'away_after_idle_minutes'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return presenceOf(row ?? { default_agent_status: null, away_after_idle_minutes: null });
}

export function chosenStatus(agent: Pick<Agent, 'chosen_status'>, settings: PresenceSettings): Agent['status'] {
  return agent.chosen_status ?? settings.default_status;
}
