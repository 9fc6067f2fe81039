/**
 * Presence and notifications (#20): the status an agent last chose
 * (`agents.chosen_status`, null = never chose: the account's default applies),
 * each agent's own alert preferences (`agents.notification_prefs_json`, null =
 * the defaults, domain/agents/notificationPrefs.ts), when the agent dismissed
 * the first-run guide (`agents.guide_dismissed_at`), and the account's
 * presence settings: the status of agents who never chose one
 * (`settings.default_agent_status`, null = online) and after how many minutes
 * without activity in the app an online agent turns Away
 * (`settings.away_after_idle_minutes`, null or 0 = never).
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('agents').addColumn('chosen_status', 'text').execute();
  await db.schema.alterTable('agents').addColumn('notification_prefs_json', 'text').execute();
  await db.schema.alterTable('agents').addColumn('guide_dismissed_at', k.time).execute();
  await db.schema.alterTable('settings').addColumn('default_agent_status', 'text').execute();
  await db.schema.alterTable('settings').addColumn('away_after_idle_minutes', 'integer').execute();
}
